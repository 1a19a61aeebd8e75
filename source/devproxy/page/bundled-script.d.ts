/** The page script bundled as a string at build time (scripts/page-script.mjs). */
declare module 'virtual:workbench-page-script' {
  const script: string;
  export default script;
}
