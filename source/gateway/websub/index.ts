// The gateway as a WebSub hub (W3C Recommendation) for its own feeds and channels: subscription
// requests checked and verified by the intent GET, leases kept in gateway_subscriptions, new
// content POSTed to subscribers (coalesced, retried, signed with hub.secret), all through source/net.
export {
  createHub,
  DEFAULT_COALESCE_MS,
  DEFAULT_HUB_TIMEOUT_MS,
  DEFAULT_RETRY_DELAYS_MS,
  HUB_MAX_CONCURRENT_EXCHANGES,
  type Hub,
  type HubOptions,
  type HubSubscription,
} from './hub.js';
export {
  readSubscriptionRequest,
  DEFAULT_LEASE_SECONDS,
  MIN_LEASE_SECONDS,
  MAX_LEASE_SECONDS,
  MAX_CALLBACK_BYTES,
  MAX_SECRET_BYTES,
  type SubscriptionRequest,
} from './subscription-request.js';
export {HUB_PATH, hubUrlOf, parseTopic, topicUrl, type Topic, type TopicRepresentation} from './topic-url.js';
export {signature} from './deliver.js';
