// Proxied origin feeds: each origin polled at its interval, its last good copy kept and served (stale-on-error).
export {createOriginPoller, type OriginPoller, type OriginPollerOptions} from './create-poller.js';
