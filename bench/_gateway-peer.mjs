// One server of bench/gateway.mjs in a process of its own (so each has its own event loop and heap,
// as in real use): `gateway` (as `serve gateway` runs it, request log on), `route` (the same without
// the front: every request through fastify and the kit's hooks), `rerender` (node:http rendering
// the feed anew on every request), or `bare` (node:http sending bytes read from a file with the
// headers given). Prints {url} as JSON on its first line, then serves until killed.
import {readFileSync} from 'node:fs';
import http from 'node:http';
import {join} from 'node:path';

const [kind, dir, originOrBody, headersJson] = process.argv.slice(2);

function listen(server) {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${server.address().port}`)));
}

if (kind === 'bare') {
  const body = readFileSync(originOrBody);
  const headers = JSON.parse(headersJson);
  console.log(JSON.stringify({url: await listen(http.createServer((_request, response) => response.writeHead(200, headers).end(body)))}));
} else {
  process.env.WORKBENCH_HOME = join(dir, `home-${kind}`);
  const {startGatewayServer, tuneGatewayProcess} = await import('../dist/servers/gateway/index.js');
  // As `serve gateway` runs it (servers/gateway/process-tuning.ts).
  tuneGatewayProcess();
  const config = {feeds: [{name: 'news', origin: originOrBody, pollIntervalMs: 600_000}]};
  const gateway = await startGatewayServer({port: 0, db: join(dir, `${kind}.sqlite`), config, logFile: join(dir, `${kind}.log`), background: false, front: kind === 'gateway'});
  await gateway.service.refresh('news');
  if (kind === 'rerender') {
    const {renderFeed} = await import('../dist/source/gateway/render/index.js');
    const document = await gateway.service.document('news');
    const server = http.createServer((_request, response) => {
      const rendered = renderFeed(document, 'rss', {baseUrl: gateway.url});
      response.writeHead(200, {'content-type': rendered.contentType, etag: rendered.etag, 'last-modified': rendered.lastModified, 'content-length': rendered.body.length});
      response.end(rendered.body);
    });
    console.log(JSON.stringify({url: await listen(server)}));
  } else {
    console.log(JSON.stringify({url: gateway.url}));
  }
}

// Started with --cpu-prof, a peer writes its profile when killed: SIGTERM exits normally.
process.on('SIGTERM', () => process.exit(0));
