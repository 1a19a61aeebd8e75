import {createServer, type Server} from 'node:http';
import {WorkbenchError} from '../../core/errors.js';

/** What the browser is shown after the redirect is caught; the terminal carries on from there. */
const DONE_PAGE = `<!doctype html><meta charset="utf-8"><title>workbench</title>
<body style="font-family: system-ui, sans-serif; margin: 3em">
<h1>Signed in</h1><p>You can close this tab and return to the terminal.</p></body>`;
const FAILED_PAGE = `<!doctype html><meta charset="utf-8"><title>workbench</title>
<body style="font-family: system-ui, sans-serif; margin: 3em">
<h1>Sign-in did not complete</h1><p>The terminal says why. You can close this tab.</p></body>`;

export interface LoopbackListener {
  /** `http://127.0.0.1:<port><path>`: the redirect URI given to the provider. */
  redirectUri: string;
  /**
   * The query of the first request on the redirect path. `accept` decides whether it succeeded
   * (the browser is shown the matching page); the promise rejects after `timeoutMs`.
   */
  wait(timeoutMs: number, accept: (query: URLSearchParams) => boolean): Promise<URLSearchParams>;
  close(): Promise<void>;
}

/**
 * A loopback redirect listener (RFC 8252 §7.3): 127.0.0.1 literally, not `localhost`, so no other
 * interface and no resolver are involved; port 0 takes any free port.
 */
export async function startLoopback(port: number, path: string): Promise<LoopbackListener> {
  let onRequest: ((query: URLSearchParams) => boolean) | undefined;
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (request.method !== 'GET' || url.pathname !== path || !onRequest) {
      response.writeHead(404, {'content-type': 'text/plain'}).end('not found\n');
      return;
    }
    const handler = onRequest;
    onRequest = undefined;
    const ok = handler(url.searchParams);
    response.writeHead(ok ? 200 : 400, {'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', connection: 'close'}).end(ok ? DONE_PAGE : FAILED_PAGE);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        new WorkbenchError(
          'conflict',
          error.code === 'EADDRINUSE'
            ? `port ${port} on 127.0.0.1 is in use; the sign-in needs it for the redirect (free it, or set redirectPort in the profile)`
            : `cannot listen on 127.0.0.1:${port}: ${error.code ?? error.message}`,
        ),
      ),
    );
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  return {
    redirectUri: `http://127.0.0.1:${actualPort}${path}`,
    wait(timeoutMs, accept) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          onRequest = undefined;
          reject(
            new WorkbenchError(
              'request_timeout',
              `no answer from the browser within ${Math.round(timeoutMs / 1000)} s; run workbench connect again (--timeout-seconds for longer)`,
            ),
          );
        }, timeoutMs);
        onRequest = (query) => {
          clearTimeout(timer);
          const ok = accept(query);
          resolve(query);
          return ok;
        };
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
