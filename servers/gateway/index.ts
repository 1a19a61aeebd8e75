// The feed gateway's HTTP server (spec 2, part B): `workbench serve gateway` calls runGatewayServer (main.ts).
export {buildGatewayApp, type GatewayAppOptions} from './app.js';
export {privateCallbacksAllowed, startGatewayServer, type GatewayServer, type GatewayServerOptions} from './start-server.js';
export {runGatewayServer, type GatewayFlags} from './main.js';
export {tuneGatewayProcess} from './process-tuning.js';
