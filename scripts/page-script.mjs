// Bundles the dev proxy's page script (source/devproxy/page/main.ts) into one minified IIFE string.
// The CLI build (scripts/build.mjs, an esbuild plugin) and vitest (vitest.config.ts, a vite plugin)
// both serve it as the module `virtual:workbench-page-script`, so the string is inside dist at run
// time and no build step runs when a page is proxied.
import {fileURLToPath} from 'node:url';
import {build} from 'esbuild';

export const PAGE_SCRIPT_MODULE = 'virtual:workbench-page-script';
export const PAGE_SCRIPT_ENTRY = fileURLToPath(new URL('../source/devproxy/page/main.ts', import.meta.url));

/** The bundled script and the files it was built from (for watch modes). */
export async function bundlePageScript() {
  const result = await build({
    entryPoints: [PAGE_SCRIPT_ENTRY],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    // Browsers of the last few years; the script is plain ES2020 with async functions.
    target: ['chrome90', 'firefox90', 'safari15'],
    minify: true,
    legalComments: 'none',
    metafile: true,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0].text.trim();
  // Inlined into <script>: esbuild escapes `</script` in strings for the browser; check it anyway.
  if (/<\/script/i.test(code)) throw new Error('page script: the bundle contains "</script" and cannot be inlined');
  return {code, inputs: Object.keys(result.metafile.inputs)};
}

/** The module text for the virtual module. */
export async function pageScriptModule() {
  const {code, inputs} = await bundlePageScript();
  return {contents: `export default ${JSON.stringify(code)};\n`, inputs};
}
