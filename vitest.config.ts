import {defineConfig, type Plugin} from 'vitest/config';
import {PAGE_SCRIPT_MODULE, pageScriptModule} from './scripts/page-script.mjs';

/** Serves the bundled page script as `virtual:workbench-page-script`, as the CLI build does. */
function pageScriptAsString(): Plugin {
  const resolved = `\0${PAGE_SCRIPT_MODULE}`;
  return {
    name: 'page-script-as-string',
    resolveId: (id) => (id === PAGE_SCRIPT_MODULE ? resolved : undefined),
    async load(id) {
      if (id !== resolved) return undefined;
      const {contents, inputs} = await pageScriptModule();
      for (const input of inputs) this.addWatchFile(input);
      return contents;
    },
  };
}

export default defineConfig({
  plugins: [pageScriptAsString()],
  // graphql-js as Node loads it (its CommonJS main), not its `module` file: graphql-language-service
  // requires the CommonJS one, and two graphql-js instances refuse each other's schemas. (The esbuild
  // bundle resolves both to the main file already.)
  resolve: {alias: [{find: /^graphql$/, replacement: 'graphql/index.js'}]},
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    setupFiles: ['test/setup/no-interactive-programs.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two cores: integration tests spawn daemons and ptys, so keep the file parallelism modest.
    maxWorkers: 2,
  },
});
