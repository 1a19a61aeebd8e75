import type {Network} from '../../net/index.js';

/** How the hub reaches subscribers: through source/net's client and address policy, always. */
export interface HubOutbound {
  /** Private and loopback callbacks are allowed (a gateway bound to loopback serves local subscribers); link-local and metadata addresses never are. */
  allowPrivate: boolean;
  network?: Network;
  /** Deadline of one exchange (connect, headers, body). */
  timeoutMs: number;
  /** Fired by close(): in-flight exchanges stop. */
  signal: AbortSignal;
}

export const HUB_USER_AGENT = 'workbench-gateway/0.1 (WebSub hub)';
