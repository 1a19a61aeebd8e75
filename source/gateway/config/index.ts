// The gateway's configuration: the `gateway` block of `.workbench.kdl` or of a `--config` file.
export {loadGatewayConfig, gatewayConfigOf, type LoadGatewayConfigOptions} from './load-config.js';
