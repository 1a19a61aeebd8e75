import {createServer, type Server} from 'node:http';
import type {AddressInfo} from 'node:net';

/**
 * A dev server for proxy tests on 127.0.0.1: an HTML page, a page whose script throws a TypeError
 * once it has loaded (`/throws`), a JSON API that fails with a 500 and a `{message}` body, a 404
 * for anything else (the favicon a browser asks for among them).
 */
export interface TargetApp {
  url: string;
  port: number;
  close(): Promise<void>;
}

export async function startTargetApp(): Promise<TargetApp> {
  const server: Server = createServer((request, response) => {
    const path = request.url ?? '/';
    if (path === '/') {
      response.writeHead(200, {'content-type': 'text/html; charset=utf-8'});
      response.end('<!doctype html><html><head><title>Target app</title></head><body><h1>hello from the target</h1></body></html>');
    } else if (path === '/throws') {
      response.writeHead(200, {'content-type': 'text/html; charset=utf-8'});
      // After load, so the error is the page's own runtime failure, not a parse error of the document.
      response.end(
        '<!doctype html><html><head><title>Throwing page</title></head><body><h1>cart</h1>' +
          '<script>window.addEventListener("load", () => setTimeout(() => { const cart = undefined; cart.total.price; }, 0));</script></body></html>',
      );
    } else if (path.startsWith('/api/ok')) {
      response.writeHead(200, {'content-type': 'application/json'});
      response.end(JSON.stringify({ok: true}));
    } else if (path.startsWith('/api/boom')) {
      response.writeHead(500, {'content-type': 'application/json'});
      response.end(JSON.stringify({message: 'database connection refused by the test'}));
    } else {
      response.writeHead(404, {'content-type': 'text/plain'});
      response.end('not here');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A port nothing listens on (taken, then released). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
