// Bundles the CLI with esbuild: one file per entry (the CLI, each pastel command, the libraries the
// benchmarks load) and shared chunks. Loading ~400 small ESM files of ink, pastel and zod costs
// ~550 ms at start; the bundle loads in ~200 ms. node-pty stays external (a native addon).
import {chmodSync, readdirSync, rmSync, statSync} from 'node:fs';
import {join, relative} from 'node:path';
import {fileURLToPath} from 'node:url';
import {build} from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));

// pastel imports ink's render (and @inkjs/ui, which imports ink) to draw every command; text
// commands draw nothing, so pastel gets source/cli/pastel-render.ts, which loads ink only when a
// component needs it. Imports of ink from anywhere else resolve as usual.
const pastelWithoutEagerInk = {
  name: 'pastel-without-eager-ink',
  setup(context) {
    context.onResolve({filter: /^(ink|@inkjs\/ui)$/}, (args) =>
      /node_modules[\\/]pastel[\\/]/.test(args.importer) ? {path: join(root, 'source/cli/pastel-render.ts')} : undefined,
    );
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
  'source/feeds/fetcher/index.ts',
  'source/feeds/poller/index.ts',
  'servers/reader/index.ts',
  'source/feeds/parser/index.ts',
];

rmSync(join(root, 'dist'), {recursive: true, force: true});
await build({
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
  // Native addons, and knex with its database drivers (it requires them by name at run time).
  external: ['node-pty', 'knex', 'better-sqlite3', 'pg', 'mysql2', 'tedious', 'oracledb', 'sqlite3', 'pg-query-stream'],
  alias: {'react-devtools-core': './scripts/empty-module.js', 'read-package-up': './scripts/read-package-up-stub.js'},
  define: {'process.env.NODE_ENV': '"production"'},
  banner: {js: "import {createRequire as __wbCreateRequire} from 'node:module'; const require = __wbCreateRequire(import.meta.url);"},
  minify: true,
  keepNames: false,
  legalComments: 'none',
  logLevel: 'warning',
  plugins: [pastelWithoutEagerInk],
});
chmodSync(join(root, 'dist/source/cli.js'), 0o755);
console.log(`built ${entryPoints.length} entries into ${relative(process.cwd(), join(root, 'dist')) || 'dist'}`);
