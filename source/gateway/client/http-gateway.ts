import {WorkbenchError} from '../../core/errors.js';
import {callServer, serverBaseUrl, type ServerAnswer, type ServerRequest} from '../../services/server-call.js';
import type {ChannelSummary, CreatedChannel, GatewayService, NewChannel, NewChannelItem, ProxiedFeedStatus, RefreshResult} from '../types.js';

// A forced refresh waits for the origin (the fetcher's 20 s timeout and more); the rest answer from the store.
const READ_TIMEOUT_MS = 15_000;
const REFRESH_TIMEOUT_MS = 120_000;

/** What the faces call on a running gateway: the service's own operations, over its HTTP API. */
export type GatewayClient = Pick<GatewayService, 'listFeeds' | 'feedStatus' | 'refresh' | 'createChannel' | 'postItem' | 'deleteChannel' | 'listChannels'> & {
  /** The gateway's base URL, e.g. http://127.0.0.1:7701. */
  readonly url: string;
};

export interface HttpGatewayOptions {
  /** The webhook's shared secret (REFRESH_TOKEN): refresh() without it is refused before any request. */
  refreshToken?: string;
}

/** `http://host:port` or `http://host:port/` of a gateway, or a one-line error naming --url. */
export function gatewayBaseUrl(url: string): string {
  return serverBaseUrl(url, '--url', 'http://127.0.0.1:7701');
}

/** The gateway's API (spec 2, part B) as a GatewayClient: `workbench channels|gateway ...` and the TUI against `workbench serve gateway`. */
export function createHttpGateway(baseUrl: string, options: HttpGatewayOptions = {}): GatewayClient {
  const base = gatewayBaseUrl(baseUrl);
  const call = (path: string, request: Partial<ServerRequest> = {}): Promise<ServerAnswer> =>
    callServer({name: 'gateway', base}, new URL(`${base}${path}`), {...request, timeoutMs: request.timeoutMs ?? READ_TIMEOUT_MS});
  const json = async <T>(path: string, request?: Partial<ServerRequest>): Promise<T> => (await call(path, request)).body as T;
  const segment = (value: string) => encodeURIComponent(value);
  // The server answers 401 for a missing token; an empty one is the same mistake, said here.
  const bearer = (token: string | undefined): Record<string, string> => (token ? {authorization: `Bearer ${token}`} : {});

  return {
    url: base,
    listFeeds: () => json<ProxiedFeedStatus[]>('/api/feeds'),
    feedStatus: (name) => json<ProxiedFeedStatus>(`/api/feeds/${segment(name)}/status`),
    async refresh(name) {
      if (!options.refreshToken) throw new WorkbenchError('unauthorized', 'refreshing needs the gateway’s shared secret: set REFRESH_TOKEN in the environment');
      return json<RefreshResult>(`/api/feeds/${segment(name)}/refresh`, {method: 'POST', headers: bearer(options.refreshToken), timeoutMs: REFRESH_TIMEOUT_MS});
    },
    createChannel: (input: NewChannel) =>
      json<CreatedChannel>('/api/channels', {
        method: 'POST',
        body: {
          title: input.title,
          ...(input.description === undefined ? {} : {description: input.description}),
          ...(input.ttlHours === undefined ? {} : {ttl_hours: input.ttlHours}),
        },
      }),
    async postItem(channelId, token, item: NewChannelItem) {
      await call(`/api/channels/${segment(channelId)}/items`, {method: 'POST', headers: bearer(token), body: item});
    },
    async deleteChannel(channelId, token) {
      await call(`/api/channels/${segment(channelId)}`, {method: 'DELETE', headers: bearer(token)});
    },
    listChannels: () => json<ChannelSummary[]>('/api/channels'),
  };
}
