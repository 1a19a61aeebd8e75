import {WorkbenchError} from '../../core/errors.js';
import {parseTopic, type Topic} from './topic-url.js';

/** hub.lease_seconds when the subscriber asks for none: 10 days, as the WebSub examples use. */
export const DEFAULT_LEASE_SECONDS = 10 * 24 * 3600;
/** Leases asked for are clamped into this range; the verification GET tells the subscriber the lease granted. */
export const MIN_LEASE_SECONDS = 60;
export const MAX_LEASE_SECONDS = 30 * 24 * 3600;
/** A longer hub.callback is refused (URLs past 2 KB are not reliably handled anywhere). */
export const MAX_CALLBACK_BYTES = 2048;
/** hub.secret "MUST be less than 200 bytes in length" (WebSub §5.1). */
export const MAX_SECRET_BYTES = 199;

/** A subscriber's request (WebSub §5.1), checked. */
export interface SubscriptionRequest {
  mode: 'subscribe' | 'unsubscribe';
  topic: Topic;
  callback: URL;
  /** The lease granted (subscribe only). */
  leaseSeconds: number;
  secret: string | null;
}

function refuse(message: string): never {
  throw new WorkbenchError('invalid_argument', message);
}

/**
 * Reads the form a subscriber POSTs to the hub. Throws invalid_argument (400) for a missing or
 * unknown hub.mode, a hub.topic that is not one of this gateway's feed URLs, a hub.callback that
 * is not an absolute http(s) URL of at most 2 KB, a hub.lease_seconds that is not a whole number,
 * and an empty or too long hub.secret. Whether the topic exists is the hub's to check.
 */
export function readSubscriptionRequest(form: Record<string, string>, baseUrl: string): SubscriptionRequest {
  const mode = form['hub.mode'];
  if (mode === undefined || mode === '') refuse('hub.mode is missing; send subscribe or unsubscribe');
  if (mode !== 'subscribe' && mode !== 'unsubscribe') refuse(`hub.mode must be subscribe or unsubscribe, not ${JSON.stringify(mode.slice(0, 40))}`);

  const topicText = form['hub.topic'];
  if (!topicText) refuse('hub.topic is missing');
  const topic = parseTopic(topicText, baseUrl);
  if (!topic) refuse(`hub.topic must be one of this gateway's feed URLs (${baseUrl}/<name> or ${baseUrl}/<name>?format=atom)`);

  const callbackText = form['hub.callback'];
  if (!callbackText) refuse('hub.callback is missing');
  if (Buffer.byteLength(callbackText) > MAX_CALLBACK_BYTES) refuse(`hub.callback is longer than ${MAX_CALLBACK_BYTES} bytes`);
  let callback: URL;
  try {
    callback = new URL(callbackText);
  } catch {
    refuse('hub.callback is not an absolute URL');
  }
  if (callback.protocol !== 'http:' && callback.protocol !== 'https:') refuse('hub.callback must be an http or https URL');

  const leaseText = form['hub.lease_seconds'];
  let leaseSeconds = DEFAULT_LEASE_SECONDS;
  if (leaseText !== undefined && leaseText !== '') {
    if (!/^\d{1,12}$/.test(leaseText)) refuse('hub.lease_seconds must be a whole number of seconds');
    leaseSeconds = Math.min(MAX_LEASE_SECONDS, Math.max(MIN_LEASE_SECONDS, Number(leaseText)));
  }

  // WebSub says a secret SHOULD only come over HTTPS. It is taken over plain HTTP too: the hub
  // cannot see a TLS proxy in front of it, and on loopback nobody else reads the request.
  const secret = form['hub.secret'];
  if (secret !== undefined) {
    // An empty key would sign with nothing: the subscriber meant to ask for signatures.
    if (secret === '') refuse('hub.secret is empty; leave it out for unsigned deliveries');
    if (Buffer.byteLength(secret) > MAX_SECRET_BYTES) refuse(`hub.secret must be less than 200 bytes`);
  }
  return {mode, topic, callback, leaseSeconds, secret: secret ?? null};
}
