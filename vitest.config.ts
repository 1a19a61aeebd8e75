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
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two cores: integration tests spawn daemons and ptys, so keep the file parallelism modest.
    maxWorkers: 2,
    // graphql has no exports map: node loads its CommonJS build for graphql-http, vite its ESM build for
    // our code — two graphql realms ("Cannot use GraphQLNonNull from another module"). Transformed by
    // vite, graphql-http imports the same graphql as we do (the CLI bundle has one copy anyway).
    server: {deps: {inline: ['graphql-http']}},
  },
});
