import {WorkbenchError} from '../../../core/errors.js';
import http from 'node:http';
import https from 'node:https';
import {AddressGuard} from '../../../net/index.js';
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
 * time in order, signed (envelope.ts); the dispatcher runs several rows' calls side by side. A 2xx answer delivers it; any other answer, a refused
 * connection or no answer within the timeout is a failure the dispatcher retries. The address
 * policy of every outbound request applies: a link-local or metadata address is never reached.
 */
export function webhookSink(options: WebhookOptions): EventSink {
  const url = webhookUrl(options.url);
  const timeoutMs = options.timeoutMs ?? 10_000;
  const guard = new AddressGuard({allowPrivate: true});
  const secure = url.protocol === 'https:';
  const agentOptions = {keepAlive: true, lookup: guard.lookupFor(url)};
  const agent = secure ? new https.Agent(agentOptions) : new http.Agent(agentOptions);
  // node:http itself, not a WHATWG fetch: the answer's status is all a delivery needs, and the
  // Headers/Response/stream objects of a fetch cost more than the request on a busy dispatcher.
  const post = (body: string, headers: Record<string, string>): Promise<{status: number; statusText: string}> => {
    guard.checkLiteral(url);
    const signal = AbortSignal.timeout(timeoutMs);
    return new Promise((resolve, reject) => {
      const request = (secure ? https : http).request(
        url,
        {method: 'POST', headers: {...headers, 'content-length': String(Buffer.byteLength(body))}, agent, signal},
        (response) => {
          response.resume();
          response.on('close', () => {
            if (response.complete) resolve({status: response.statusCode ?? 0, statusText: response.statusMessage ?? ''});
            else reject(signal.aborted ? Object.assign(new Error('timed out'), {name: 'TimeoutError'}) : new Error('the connection closed in the middle of the answer'));
          });
        },
      );
      request.on('error', reject);
      request.end(body);
    });
  };
  return {
    name: `webhook ${url.origin}${url.pathname}`,
    perRow: true,
    async deliver(events: OutgoingEvent[]): Promise<SinkOutcome> {
      for (const [index, {event, body}] of events.entries()) {
        const headers = {
          'content-type': 'application/cloudevents+json; charset=utf-8',
          ...signatureHeaders(body, options.secrets, String(event.id), Math.floor(Date.now() / 1000)),
        };
        try {
          const response = await post(body, headers);
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
    async close() {
      agent.destroy();
    },
  };
}
