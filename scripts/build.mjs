// Bundles the CLI with esbuild: one file per entry (the CLI, each pastel command, the libraries the
// benchmarks load) and shared chunks. Loading ~400 small ESM files of ink, pastel and zod costs
// ~550 ms at start; the bundle loads in ~200 ms. node-pty stays external (a native addon).
import {createHash} from 'node:crypto';
import {chmodSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync} from 'node:fs';
import {readFile} from 'node:fs/promises';
import {dirname, join, relative} from 'node:path';
import {fileURLToPath} from 'node:url';
import {build} from 'esbuild';
import {PAGE_SCRIPT_MODULE, pageScriptModule} from './page-script.mjs';
import {bundlePlayground} from './playground.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

// pastel imports ink's render (and @inkjs/ui, which imports ink) to draw every command; text
// commands draw nothing, so pastel gets source/cli/pastel-render.ts, which loads ink only when a
// component needs it. Imports of ink from anywhere else resolve as usual. pastel also calls
// readPackageUp() on every run for defaults workbench passes itself: it gets a stub.
// pastel imports every command before it parses the command line: its read-commands.js gets
// source/cli/pastel-read-commands.ts, which loads only the command the line names.
// The swaps depend on pastel's file layout (pinned to one version in package.json): each one
// counts what it replaced, and the build fails when one replaced nothing.
const swapped = {
  'pastel → ink': 0,
  'pastel → @inkjs/ui': 0,
  'pastel → read-package-up': 0,
  'pastel → read-commands': 0,
  'ink → frame caches': 0,
  'ink → remembered widest line': 0,
  'zod → locales': 0,
};
const pastelWithoutEagerInk = {
  name: 'pastel-without-eager-ink',
  setup(context) {
    context.onResolve({filter: /^(ink|@inkjs\/ui|read-package-up)$/}, (args) => {
      if (!/node_modules[\\/]pastel[\\/]/.test(args.importer)) return undefined;
      swapped[`pastel → ${args.path}`]++;
      return {path: join(root, args.path === 'read-package-up' ? 'scripts/read-package-up-stub.js' : 'source/cli/pastel-render.ts')};
    });
    context.onResolve({filter: /^\.\/read-commands\.js$/}, (args) => {
      if (!/node_modules[\\/]pastel[\\/]build[\\/]index\.js$/.test(args.importer)) return undefined;
      swapped['pastel → read-commands']++;
      return {path: join(root, 'source/cli/pastel-read-commands.ts')};
    });
  },
};

// zod's `z` carries `z.locales`, the error messages of ~50 languages (~260 KB of the ~450 KB of
// zod every command loads); workbench speaks English, zod's default, and never picks another.
// zod's modules that re-export the locales (`z.locales`, `z.core.locales`) get one with English only.
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(context) {
    context.onResolve({filter: /^\.\.\/locales\/index\.js$/}, (args) => {
      if (!/node_modules[\\/]zod[\\/]v4[\\/](classic[\\/]external|mini[\\/]external|core[\\/]index)\.js$/.test(args.importer)) return undefined;
      swapped['zod → locales']++;
      return {path: 'zod-locales', namespace: 'zod-english-only'};
    });
    context.onLoad({filter: /.*/, namespace: 'zod-english-only'}, () => ({
      contents: "export {default as en} from './en.js';\n",
      loader: 'js',
      resolveDir: join(root, 'node_modules/zod/v4/locales'),
    }));
  },
};

// The dev proxy's page script, bundled for the browser and embedded as a string (scripts/page-script.mjs).
const pageScriptAsString = {
  name: 'page-script-as-string',
  setup(context) {
    context.onResolve({filter: new RegExp(`^${PAGE_SCRIPT_MODULE}$`)}, () => ({path: PAGE_SCRIPT_MODULE, namespace: 'page-script'}));
    context.onLoad({filter: /.*/, namespace: 'page-script'}, async () => {
      const {contents, inputs} = await pageScriptModule();
      return {contents, loader: 'js', watchFiles: inputs.map((input) => join(root, input))};
    });
  },
};

// ink's Output keeps the styled characters of a line for one frame only, and builds every row of
// every frame anew; scripts/ink-frame-caches.js lets each frame reuse the last one's characters and
// unchanged rows, and remembers the widest line of a text (the TUI's idle cost and key latency).
// Pinned to ink's output.js as of 6.8: the build fails when the line it replaces is gone or when
// ink's Output.get differs from the one the helper copies.
const INK_OUTPUT_CACHES = 'caches = new OutputCaches();';
const INK_OUTPUT_GET_SHA256 = '836b512fbfbec5dc288acf2974859e22878d5e802be598a060a34e98aeb99987';
const inkOutputGet = (source) =>
  createHash('sha256')
    .update(source.slice(source.indexOf('    get() {'), source.indexOf('//# sourceMappingURL')))
    .digest('hex');
const inkFrameCaches = {
  name: 'ink-frame-caches',
  setup(context) {
    const helper = JSON.stringify(join(root, 'scripts/ink-frame-caches.js'));
    context.onLoad({filter: /node_modules[\\/]ink[\\/]build[\\/]output\.js$/}, async (args) => {
      const source = await readFile(args.path, 'utf8');
      if (!source.includes(INK_OUTPUT_CACHES)) throw new Error(`ink's output.js no longer has \`${INK_OUTPUT_CACHES}\`: see scripts/ink-frame-caches.js`);
      if (inkOutputGet(source) !== INK_OUTPUT_GET_SHA256) throw new Error(`ink's Output.get changed: compare it with rowReusingGet in scripts/ink-frame-caches.js`);
      swapped['ink → frame caches']++;
      return {
        contents: [
          `import {withRecentFrames, rowReusingGet} from ${helper};`,
          source.replace(INK_OUTPUT_CACHES, 'caches = withRecentFrames(new OutputCaches());'),
          'Output.prototype.get = rowReusingGet({sliceAnsi, styledCharsToString});',
        ].join('\n'),
        loader: 'js',
        resolveDir: dirname(args.path),
      };
    });
    context.onResolve({filter: /^widest-line$/}, (args) => {
      if (!/node_modules[\\/]ink[\\/]build[\\/]render-node-to-output\.js$/.test(args.importer)) return undefined;
      swapped['ink → remembered widest line']++;
      return {path: 'remembered-widest-line', namespace: 'ink-frame-caches'};
    });
    context.onLoad({filter: /.*/, namespace: 'ink-frame-caches'}, () => ({
      contents: `import widestLine from 'widest-line';\nimport {rememberedWidestLine} from ${helper};\nexport default rememberedWidestLine(widestLine);`,
      loader: 'js',
      resolveDir: join(root, 'node_modules/ink/build'),
    }));
  },
};

function files(dir) {
  return readdirSync(join(root, dir)).flatMap((name) => {
    const path = join(dir, name);
    return statSync(join(root, path)).isDirectory() ? files(path) : /\.tsx?$/.test(name) ? [path] : [];
  });
}

const entryPoints = [
  'source/cli.tsx',
  ...files('commands'),
  // Loaded by bench/ scripts.
  'source/incidents/index.ts',
  'source/processes/scanner/scanner.ts',
  'source/processes/scanner/rules.ts',
  'source/processes/terminal-line.ts',
  'source/feeds/fetcher/index.ts',
  'source/feeds/poller/index.ts',
  'servers/reader/index.ts',
  'servers/gateway/index.ts',
  'source/gateway/render/index.ts',
  'source/feeds/parser/index.ts',
  'source/devproxy/start-proxy.ts',
  'source/devproxy/metrics.ts',
  'source/metrics/registry.ts',
  'source/devproxy/inject/inject-html.ts',
  'source/devproxy/inject/page-script.ts',
  'source/gql/service.ts',
  'servers/graphql/index.ts',
  'source/gql/events/dispatcher.ts',
  'source/gql/events/events-service.ts',
  'source/gql/events/outbox-store.ts',
  'source/gql/events/sinks/nats.ts',
];

rmSync(join(root, 'dist'), {recursive: true, force: true});
const result = await build({
  absWorkingDir: root,
  entryPoints,
  outdir: 'dist',
  outbase: '.',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  chunkNames: 'chunks/[name]-[hash]',
  // Native addons, knex with its database drivers (it requires them by name at run time), and
  // playwright-core (it reads its own files and spawns its own scripts beside them).
  // blessed loads its widgets and terminfo by computed paths at run time: it cannot be bundled.
  external: ['blessed', 'blessed-contrib', 'node-pty', 'playwright-core', 'knex', 'better-sqlite3', 'pg', 'mysql2', 'tedious', 'oracledb', 'sqlite3', 'pg-query-stream'],
  // jsonc-parser's `main` is a UMD build whose factory requires its parts by relative name, which a
  // bundle cannot follow ("Cannot find module './impl/format'"); its ESM build bundles whole.
  alias: {'react-devtools-core': './scripts/empty-module.js', 'jsonc-parser': './node_modules/jsonc-parser/lib/esm/main.js'},
  define: {'process.env.NODE_ENV': '"production"'},
  banner: {js: "import {createRequire as __wbCreateRequire} from 'node:module'; const require = __wbCreateRequire(import.meta.url);"},
  minify: true,
  keepNames: false,
  legalComments: 'none',
  logLevel: 'warning',
  plugins: [pastelWithoutEagerInk, zodEnglishOnly, pageScriptAsString, inkFrameCaches],
  // Which sources each output file holds: test/integration/no-ink.test.ts reads it.
  metafile: true,
});
const missed = Object.entries(swapped)
  .filter(([, count]) => count === 0)
  .map(([swap]) => swap);
if (missed.length > 0) {
  console.error(`build: the pastel swap matched nothing for ${missed.join(', ')} — pastel's files changed (see scripts/build.mjs); the bundle would load ink for every command`);
  process.exit(1);
}
// pastel-read-commands.ts finds a command by its file name: a command that renames itself would be missed.
const renamed = Object.entries(result.metafile.outputs)
  .filter(([output, {exports}]) => output.startsWith('dist/commands/') && exports.some((name) => name === 'alias' || name === 'isDefault'))
  .map(([output]) => output);
if (renamed.length > 0) {
  console.error(`build: ${renamed.join(', ')} export alias or isDefault, which source/cli/pastel-read-commands.ts does not follow (it finds commands by file name)`);
  process.exit(1);
}
writeFileSync(join(root, 'dist/metafile.json'), JSON.stringify(result.metafile));
// The GraphQL server's playground (GraphiQL, React, their CSS) as two files it serves itself (servers/graphql/playground-assets.ts).
const playground = await bundlePlayground();
mkdirSync(join(root, 'dist/playground'), {recursive: true});
writeFileSync(join(root, 'dist/playground/graphiql.js'), playground.js);
writeFileSync(join(root, 'dist/playground/graphiql.css'), playground.css);
chmodSync(join(root, 'dist/source/cli.js'), 0o755);
console.log(`built ${entryPoints.length} entries into ${relative(process.cwd(), join(root, 'dist')) || 'dist'}`);
