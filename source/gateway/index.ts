// The feed gateway (spec 2, part B) as its faces use it: the service joining its parts, the
// config loader, negotiation and links for the server, and the contract's types and limits.
export {createGatewayService, type GatewayServiceOptions, type LocalGatewayService, type Served} from './service.js';
export {loadGatewayConfig} from './config/index.js';
export {chooseRepresentation, hubUrl, selfUrl} from './render/index.js';
export {defaultGatewayDatabase} from './store/index.js';
export * from './types.js';
