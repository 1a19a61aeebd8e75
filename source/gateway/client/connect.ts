import {WorkbenchError} from '../../core/errors.js';
import {findService} from '../../services/registry.js';
import {createHttpGateway, type GatewayClient} from './http-gateway.js';

/** How every face says the gateway is not there (the TUI shows it as is). */
export const GATEWAY_NOT_RUNNING = 'gateway not running — workbench serve gateway';

export interface OpenGatewayOptions {
  /** A gateway's URL; else the one `workbench serve gateway` announced. */
  url?: string;
  /** REFRESH_TOKEN, for refresh(); never printed. */
  refreshToken?: string;
}

/**
 * The gateway every face uses: the one named, else the one `workbench serve gateway` announced in
 * the service registry (WORKBENCH_HOME/services/gateway.json) if it answers. Unlike the reader it
 * has no in-process fallback (its feeds live in the poller of a running server), and, as the
 * reader's CLI, nothing starts one behind the user's back: not running is an error saying how.
 */
export async function openGateway(options: OpenGatewayOptions = {}): Promise<GatewayClient> {
  const url = options.url ?? (await findService('gateway'))?.url;
  if (url === undefined) throw new WorkbenchError('daemon_not_connected', `${GATEWAY_NOT_RUNNING} starts it (or name one with --url)`);
  return createHttpGateway(url, {refreshToken: options.refreshToken});
}
