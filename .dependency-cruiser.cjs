// The import map of docs/ARCHITECTURE.md, checked by `npm run check:imports` (part of
// `npm test`). An area is a top-level folder of source/ (source/feeds, source/daemon, …), commands/,
// or one server (servers/reader, servers/kit, …). Logic lives in the areas of source/; the faces are
// the pastel commands (commands/ and their shared parts in source/cli/, with the entry
// source/cli.tsx), the ink TUI (source/tui/), the MCP stdio server (source/mcp/) and the HTTP
// servers (servers/).
//
// Type-only imports count (tsPreCompilationDeps): a type import from a face still ties the logic to it.
// Cycles between areas are found by scripts/check-imports.mjs, which runs these rules too.

const FACE = '^(commands/|servers/|source/(cli|tui|mcp)/|source/cli\\.tsx$)';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'logic-imports-a-face',
      severity: 'error',
      comment:
        'Logic (source/<area>) never imports a face: not commands/, source/cli/, source/tui/, source/mcp/ or servers/. ' +
        'This is also the rule that keeps the daemon from importing the TUI. Move the shared part into the logic, or pass it in.',
      from: {path: '^source/[^/]+/', pathNot: FACE},
      to: {path: FACE},
    },
    {
      name: 'server-imports-a-command',
      severity: 'error',
      comment: 'A server never imports the CLI or the TUI (commands/, source/cli/, source/tui/, source/mcp/): both are faces over the same logic.',
      from: {path: '^servers/'},
      to: {path: '^(commands/|source/(cli|tui|mcp)/|source/cli\\.tsx$)'},
    },
    {
      name: 'server-imports-another-server',
      severity: 'error',
      comment: 'A server imports no other server but the shared kit (servers/kit): what two servers share belongs in the kit.',
      from: {path: '^servers/([^/]+)/'},
      to: {path: '^servers/', pathNot: '^servers/($1|kit)/'},
    },
    {
      name: 'page-script-imports-node',
      severity: 'error',
      comment:
        'The page script (source/devproxy/page/) runs in the browser: it imports no Node module and no package, and of our code only ' +
        'itself, the proxy contract (source/devproxy/types.ts) and the channel protocol (source/devproxy/channel/protocol.ts, types only).',
      from: {path: '^source/devproxy/page/'},
      to: {dependencyTypes: ['core', 'npm', 'npm-dev', 'npm-optional', 'npm-peer', 'npm-bundled', 'npm-no-pkg', 'npm-unknown', 'unknown', 'undetermined']},
    },
    {
      name: 'page-script-imports-other-code',
      severity: 'error',
      comment: 'The page script imports only page/, the proxy contract and the channel protocol (see page-script-imports-node).',
      from: {path: '^source/devproxy/page/'},
      to: {path: '^(source|commands|servers)/', pathNot: '^source/devproxy/(page/|types\\.ts$|channel/protocol\\.ts$)'},
    },
    {
      name: 'no-module-circle',
      severity: 'error',
      comment:
        'No module imports itself through others, inside an area too (the GraphQL query pipeline had plan → filter-sql → eav/read-sql → json-sql → plan): ' +
        'move what both sides need into a module below them.',
      from: {path: '^(source|commands|servers)/'},
      to: {circular: true},
    },
    {
      name: 'imports-tests',
      severity: 'error',
      comment: 'Shipped code never imports test/, bench/ or fixtures/.',
      from: {path: '^(source|commands|servers)/'},
      to: {path: '^(test|bench|fixtures)/'},
    },
  ],
  options: {
    tsConfig: {fileName: 'tsconfig.json'},
    tsPreCompilationDeps: true,
    // Only the shipped code is cruised (npm test passes source, commands, servers); a package, or a
    // test file that shipped code should not have imported, is a leaf.
    doNotFollow: {path: '(^|/)node_modules/|^(test|bench|fixtures)/'},
    exclude: {path: '^dist/'},
    cache: {folder: 'node_modules/.cache/dependency-cruiser', strategy: 'content'},
  },
};
