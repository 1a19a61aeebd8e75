// What every workbench server shares (servers/reader now; the gateway and GraphQL servers next):
// the app builder, one error body for every failure, the Host/Origin guard, the request log, and
// listen/announce/close with the service registry.
export {createServer, DEFAULT_BODY_LIMIT, type ServerOptions} from './create-server.js';
export {type Front, type FrontAnswer, type FrontRequest} from './front.js';
export {errorAnswer, clientErrorHandler, type ErrorAnswer, type ErrorWording} from './error-handler.js';
export {installLocalGuard, type PublicRouteConfig} from './local-guard.js';
export {listen, listenOver, serve, isLoopback, type Running, type ServeOptions, type Serving} from './serve.js';
export {errorSchema, errorResponses, noQuery} from './schemas.js';
export {notModified} from './conditional.js';
export {acceptWebSockets, type WebSocketRoute} from './websocket.js';
export {parseHost, parsePort, parsePublicUrl} from './flags.js';
