import {request as httpRequest} from 'node:http';
import {request as httpsRequest} from 'node:https';

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

/**
 * One request with node:http. Not fetch: loading undici costs a CLI command ~120 ms, more than
 * the whole call to a local reader.
 */
export function httpCall(url: URL, options: {method: string; headers: Record<string, string>; body?: string; timeoutMs: number}): Promise<HttpAnswer> {
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const body = options.body === undefined ? undefined : Buffer.from(options.body);
    const headers = body ? {...options.headers, 'content-length': String(body.length)} : options.headers;
    const req = request(url, {method: options.method, headers}, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        clearTimeout(timer);
        resolve({status: response.statusCode ?? 0, contentType: String(response.headers['content-type'] ?? ''), text: Buffer.concat(chunks).toString('utf8')});
      });
      response.on('error', (error) => fail(error.message));
    });
    const fail = (reason: string) => {
      clearTimeout(timer);
      req.destroy();
      reject(new NoAnswerError(reason));
    };
    const timer = setTimeout(() => fail(`no answer within ${Math.round(options.timeoutMs / 1000) || options.timeoutMs / 1000} s`), options.timeoutMs);
    req.on('error', (error: NodeJS.ErrnoException) => fail(error.code ?? error.message));
    req.end(body);
  });
}
