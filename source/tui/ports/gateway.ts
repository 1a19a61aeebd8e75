import {WorkbenchError} from '../../core/errors.js';
import {GATEWAY_NOT_RUNNING, openGateway} from '../../gateway/client/connect.js';
import type {GatewayClient} from '../../gateway/client/http-gateway.js';
import type {ChannelSummary, ProxiedFeedStatus, RefreshResult} from '../../gateway/types.js';
import {pollingWatch, type Watch} from './watch.js';

// What the Feeds pane's gateway view says while no gateway answers: the words every face uses.
export {GATEWAY_NOT_RUNNING};

export interface GatewaySnapshot {
  url: string;
  feeds: ProxiedFeedStatus[];
  channels: ChannelSummary[];
}

/** The gateway as the TUI sees it: the client `workbench gateway|channels ...` use, on the running `workbench serve gateway`. */
export interface GatewayPort {
  /** Its proxied feeds (status read from its store) and live channels; rejects with GATEWAY_NOT_RUNNING when none answers. */
  snapshot(): Promise<GatewaySnapshot>;
  /** The refresh webhook, with REFRESH_TOKEN from the environment. */
  refresh(name: string): Promise<RefreshResult>;
  /** Calls `onChange` when feeds or channels may have changed. */
  watch: Watch;
}

const notRunning = (error: unknown) => error instanceof WorkbenchError && error.code === 'daemon_not_connected';

export function createGatewayPort(options: {open?: () => Promise<GatewayClient>; pollMs: number}): GatewayPort {
  const open = options.open ?? (() => openGateway({refreshToken: process.env.REFRESH_TOKEN || undefined}));
  // The client is kept while the gateway answers; one that stopped is looked up again in the registry next time (it may come back on another port).
  let current: Promise<GatewayClient> | undefined;
  const withGateway = async <T>(work: (gateway: GatewayClient) => Promise<T>): Promise<T> => {
    const pending = (current ??= open());
    try {
      return await work(await pending);
    } catch (error) {
      if (!notRunning(error)) throw error;
      if (current === pending) current = undefined;
      throw new WorkbenchError('daemon_not_connected', GATEWAY_NOT_RUNNING);
    }
  };
  return {
    snapshot: () =>
      withGateway(async (gateway) => {
        const [feeds, channels] = await Promise.all([gateway.listFeeds(), gateway.listChannels()]);
        return {url: gateway.url, feeds, channels};
      }),
    refresh: (name) => withGateway((gateway) => gateway.refresh(name)),
    watch: pollingWatch(options.pollMs),
  };
}
