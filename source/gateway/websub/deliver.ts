import {createHmac} from 'node:crypto';
import {AddressGuard, Deadline, isOutboundError, openRequest} from '../../net/index.js';
import type {RenderedFeed} from '../types.js';
import {HUB_USER_AGENT, type HubOutbound} from './outbound.js';

/** What one content distribution request (WebSub §7) carries. */
export interface Delivery {
  callback: string;
  topic: string;
  hub: string;
  secret: string | null;
  content: RenderedFeed;
}

/**
 * How one attempt ended: delivered (2xx); gone (410: the subscriber ended the subscription);
 * refused (the address policy will refuse it again, no retry); failed (retry later).
 */
export type DeliveryOutcome = {kind: 'delivered'} | {kind: 'gone'} | {kind: 'refused'; reason: string} | {kind: 'failed'; reason: string};

/** `sha256=<hex HMAC of the body keyed by hub.secret>` (WebSub §8). */
export function signature(secret: string, body: Buffer): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/** POSTs the topic's current representation to a subscriber, with its Link headers and, given a secret, its signature. */
export async function deliver(delivery: Delivery, outbound: HubOutbound): Promise<DeliveryOutcome> {
  const url = new URL(delivery.callback);
  const headers: Record<string, string> = {
    'content-type': delivery.content.contentType,
    link: `<${delivery.hub}>; rel="hub", <${delivery.topic}>; rel="self"`,
    'user-agent': HUB_USER_AGENT,
  };
  if (delivery.secret !== null) headers['x-hub-signature'] = signature(delivery.secret, delivery.content.body);
  const deadline = new Deadline(outbound.timeoutMs, outbound.signal);
  try {
    const guard = new AddressGuard({allowPrivate: outbound.allowPrivate}, outbound.network);
    const response = await openRequest(url, {method: 'POST', headers, body: delivery.content.body, deadline, guard});
    // The answer's body means nothing to the hub: only its status is read.
    response.discard();
    if (response.status >= 200 && response.status < 300) return {kind: 'delivered'};
    if (response.status === 410) return {kind: 'gone'};
    return {kind: 'failed', reason: `${delivery.callback} answered ${response.status}`};
  } catch (error) {
    if (isOutboundError(error) && error.kind === 'refused') return {kind: 'refused', reason: error.message};
    return {kind: 'failed', reason: isOutboundError(error) ? error.message : String(error)};
  } finally {
    deadline.release();
  }
}
