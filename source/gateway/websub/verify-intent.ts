import {randomBytes} from 'node:crypto';
import {sendRequest} from '../../net/index.js';
import {HUB_USER_AGENT, type HubOutbound} from './outbound.js';
import type {SubscriptionRequest} from './subscription-request.js';

// The echo is the challenge and nothing else; a bigger answer is not a confirmation.
const MAX_ECHO_BYTES = 1024;

/**
 * The intent verification of WebSub §5.3: GET the callback with hub.mode, hub.topic, a fresh
 * 256-bit hub.challenge and (subscribe) the lease granted. Confirmed only by a 2xx whose body is
 * exactly the challenge; any other answer, a refused address, a timeout: not confirmed (false).
 * Redirects are not followed.
 */
export async function verifyIntent(request: SubscriptionRequest, outbound: HubOutbound): Promise<boolean> {
  const challenge = randomBytes(32).toString('base64url');
  const url = new URL(request.callback.href);
  url.searchParams.append('hub.mode', request.mode);
  url.searchParams.append('hub.topic', request.topic.url);
  url.searchParams.append('hub.challenge', challenge);
  if (request.mode === 'subscribe') url.searchParams.append('hub.lease_seconds', String(request.leaseSeconds));
  const response = await sendRequest(url, {
    headers: {'user-agent': HUB_USER_AGENT, accept: 'text/plain, */*;q=0.1'},
    timeoutMs: outbound.timeoutMs,
    maxBytes: MAX_ECHO_BYTES,
    policy: {allowPrivate: outbound.allowPrivate},
    network: outbound.network,
    signal: outbound.signal,
  });
  return response.status >= 200 && response.status < 300 && response.body.toString('utf8') === challenge;
}
