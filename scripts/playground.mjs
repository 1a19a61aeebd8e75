// Bundles the GraphQL playground (servers/graphql/playground/browser.tsx: GraphiQL, React and
// their CSS) into one script and one stylesheet, which the GraphQL server serves itself — a
// playground that needs no CDN works offline and under a strict Content-Security-Policy.
// scripts/build.mjs writes them into dist/playground/; tests call bundlePlayground() directly.
import {fileURLToPath} from 'node:url';
import {build} from 'esbuild';

export const PLAYGROUND_ENTRY = fileURLToPath(new URL('../servers/graphql/playground/browser.tsx', import.meta.url));

/** {js, css}: the bundled playground as text. */
export async function bundlePlayground() {
  const result = await build({
    entryPoints: [PLAYGROUND_ENTRY],
    bundle: true,
    write: false,
    outdir: 'playground',
    entryNames: 'graphiql',
    format: 'esm',
    platform: 'browser',
    target: ['chrome100', 'firefox100', 'safari15'],
    jsx: 'automatic',
    define: {'process.env.NODE_ENV': '"production"'},
    // GraphiQL's stylesheet is imported by its entry (graphiql/style.css) and its fonts inlined.
    loader: {'.woff': 'dataurl', '.woff2': 'dataurl', '.ttf': 'dataurl', '.svg': 'dataurl'},
    minify: true,
    legalComments: 'none',
    logLevel: 'warning',
  });
  const js = result.outputFiles.find((file) => file.path.endsWith('.js'));
  const css = result.outputFiles.find((file) => file.path.endsWith('.css'));
  if (!js || !css) throw new Error('playground: the bundle has no script or no stylesheet');
  return {js: js.text, css: css.text};
}
