import {WorkbenchError} from '../../../core/errors.js';
import {guardedFetch} from '../../../net/index.js';
import {signatureHeaders} from '../envelope.js';
import type {EventSink, OutgoingEvent, SinkOutcome} from './sink.js';

export interface WebhookOptions {
  url: string;
  /** `webhook-secret`: one signature per secret. */
  secrets: readonly string[];
  /** A delivery that has not answered in this long fails (default 10 s): a hanging receiver cannot hold the aggregate forever. */
  timeoutMs?: number;
}

/** `Cdc:WebhookUrl` checked: http or https, a host. */
export function webhookUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new WorkbenchError('config_invalid', `Cdc:WebhookUrl ${JSON.stringify(text)} is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new WorkbenchError('config_invalid', `Cdc:WebhookUrl must be http or https, not ${url.protocol}`);
  return url;
}

/**
 * Posts each event to the webhook as a CloudEvents 1.0 JSON body (structured mode), one at a
 * time in order, signed (envelope.ts). A 2xx answer delivers it; any other answer, a refused
 * connection or no answer within the timeout is a failure the dispatcher retries. The address
 * policy of every outbound request applies: a link-local or metadata address is never reached.
 */
export function webhookSink(options: WebhookOptions): EventSink {
  const url = webhookUrl(options.url);
  const fetch = guardedFetch({allowPrivate: true});
  const timeoutMs = options.timeoutMs ?? 10_000;
  return {
    name: `webhook ${url.origin}${url.pathname}`,
    async deliver(events: OutgoingEvent[]): Promise<SinkOutcome> {
      for (const [index, {event, body}] of events.entries()) {
        const headers = {
          'content-type': 'application/cloudevents+json; charset=utf-8',
          ...signatureHeaders(body, options.secrets, String(event.id), Math.floor(Date.now() / 1000)),
        };
        try {
          const response = await fetch(url, {method: 'POST', headers, body, signal: AbortSignal.timeout(timeoutMs)});
          await response.arrayBuffer().catch(() => undefined);
          if (response.status < 200 || response.status > 299)
            return {delivered: index, error: `the webhook answered ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`};
        } catch (error) {
          const reason =
            (error as Error).name === 'TimeoutError' || (error as Error).name === 'AbortError'
              ? `no answer within ${timeoutMs} ms`
              : ((error as Error).message.split('\n')[0] ?? String(error));
          return {delivered: index, error: `the webhook could not be reached: ${reason}`};
        }
      }
      return {delivered: events.length};
    },
    async close() {},
  };
}
