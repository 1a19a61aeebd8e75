import {isOutboundError} from '../net/outbound-error.js';
import {sendRequest} from '../net/http-client.js';

export interface HttpAnswer {
  status: number;
  contentType: string;
  text: string;
}

/** Raised when no answer came: refused, reset, unknown host, or no answer within the time. */
export class NoAnswerError extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

// A reader's answers are pages of articles and OPML exports; anything past this is not a reader.
const MAX_ANSWER_BYTES = 64 * 1024 * 1024;

/**
 * One request through the outbound client (source/net, node:http: loading fetch's undici costs a
 * CLI command ~120 ms, more than the whole call to a local reader). The reader's address is the
 * user's (--server, or the state file of a reader they started): private and loopback allowed.
 */
export async function httpCall(url: URL, options: {method: string; headers: Record<string, string>; body?: string; timeoutMs: number}): Promise<HttpAnswer> {
  try {
    const answer = await sendRequest(url, {
      method: options.method,
      headers: options.headers,
      body: options.body,
      timeoutMs: options.timeoutMs,
      maxBytes: MAX_ANSWER_BYTES,
      policy: {allowPrivate: true},
    });
    return {status: answer.status, contentType: answer.headers.get('content-type') ?? '', text: answer.body.toString('utf8')};
  } catch (error) {
    if (!isOutboundError(error)) throw error;
    if (error.kind === 'timeout') throw new NoAnswerError(`no answer within ${Math.round(options.timeoutMs / 1000) || options.timeoutMs / 1000} s`);
    if (error.kind === 'network' && error.code) throw new NoAnswerError(error.code);
    throw new NoAnswerError(error.message);
  }
}
