import {createServer, type Server, type ServerResponse} from 'node:http';
import type {AddressInfo} from 'node:net';

/**
 * A page server on 127.0.0.1 (port 0) for the browser tests. `/` serves the current variant, so a
 * test changes the page between two captures; the other paths are the faults a capture must survive.
 */
export interface TestPages {
  url: string;
  /** `/`: a red box, a moved blue one, or a taller page. */
  variant: 'plain' | 'changed' | 'tall';
  close(): Promise<void>;
}

const box = (colour: string, left: number, extra = '') =>
  `<!doctype html><html><head><title>Test page</title></head><body style="margin:0;font-family:sans-serif">` +
  `<div style="position:absolute;left:${left}px;top:40px;width:400px;height:300px;background:${colour}"></div>${extra}</body></html>`;

export async function startTestPages(): Promise<TestPages> {
  const held: ServerResponse[] = [];
  const pages: TestPages = {url: '', variant: 'plain', close: async () => undefined};
  const server: Server = createServer((request, response) => {
    const html = (body: string, status = 200) => response.writeHead(status, {'content-type': 'text/html; charset=utf-8'}).end(body);
    switch (request.url) {
      case '/':
        if (pages.variant === 'plain') return html(box('#c33', 40));
        if (pages.variant === 'changed') return html(box('#33c', 500));
        return html(box('#c33', 40, '<div style="height:2000px"></div>'));
      // Accepts the request and never answers: a capture must give up at its timeout.
      case '/hang':
        held.push(response);
        return;
      case '/to-metadata':
        return response.writeHead(302, {location: 'http://169.254.169.254/latest/meta-data/'}).end();
      case '/to-metadata-https':
        return response.writeHead(302, {location: 'https://169.254.169.254/latest/meta-data/'}).end();
      case '/embeds-metadata':
        return html(box('#c33', 40, '<img src="http://169.254.169.254/latest/meta-data/x.png" alt="">'));
      case '/missing':
        return html('<h1>not here</h1>', 404);
      default:
        return html('<h1>?</h1>', 404);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  pages.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  pages.close = () =>
    new Promise((resolve) => {
      for (const response of held) response.destroy();
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return pages;
}
