// The GraphQL server (spec 3): `workbench serve graphql` calls runGraphqlServer (main.ts).
export {buildGraphqlApp, type GraphqlAppOptions} from './app.js';
export {startGraphqlServer, DEFAULT_GRAPHQL_PORT, type GraphqlServer, type GraphqlServerOptions, type ServableService} from './start-server.js';
export {builtPlaygroundAssets, type PlaygroundAssets} from './playground-assets.js';
export {HEALTH_PATH} from './routes/health.js';
export {runGraphqlServer, type GraphqlFlags, type OpenService} from './main.js';
export {PLAYGROUND_ASSETS} from './routes/playground.js';
