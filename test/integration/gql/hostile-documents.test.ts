import {readFileSync} from 'node:fs';
import {request} from 'node:http';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {eventually, makeSandbox, runCli, type Sandbox} from '../../helpers/cli.js';
import {startServeProcess, type ServeProcess} from '../../helpers/serve-process.js';

// The bad input against a real `serve graphql` on the embedded default (SQLite, the
// Chinook sample loaded by `gql sample`), as a user starts it: documents of 100,000 aliases and
// of 10 MB, and 100 clients that send a query and hang up at once. Each time the server stays up,
// answers the next small query, and its memory returns near where it was.

const sandbox: Sandbox = makeSandbox('wb-gql-hostile-');
let server: ServeProcess;

beforeAll(async () => {
  const loaded = await runCli(['gql', 'sample'], {env: sandbox.env, cwd: sandbox.dir, timeoutMs: 60_000});
  expect(loaded.code, loaded.stderr).toBe(0);
  server = await startServeProcess({name: 'graphql', env: sandbox.env, home: sandbox.env.WORKBENCH_HOME!, cwd: sandbox.dir});
}, 90_000);

afterAll(async () => {
  await server?.stop();
  await sandbox.cleanup();
});

const SMALL = '{ Genre(limit: 1) { data { Name } } }';

async function post(query: string): Promise<{status: number; body: {data?: unknown; errors?: Array<{message: string; extensions?: Record<string, unknown>}>}}> {
  const response = await fetch(`${server.url}/graphql`, {
    method: 'POST',
    headers: {'content-type': 'application/json', accept: 'application/json'},
    body: JSON.stringify({query}),
  });
  const text = await response.text();
  return {status: response.status, body: JSON.parse(text) as never};
}

async function answersTheNextQuery(): Promise<void> {
  expect(server.child.exitCode).toBeNull();
  expect((await fetch(`${server.url}/_workbench/health`)).ok).toBe(true);
  expect((await post(SMALL)).body).toEqual({data: {Genre: {data: [{Name: 'Rock'}]}}});
}

/** The server's resident memory in MB, from the kernel's own account of its process. */
function residentMb(): number {
  const status = readFileSync(`/proc/${server.child.pid}/status`, 'utf8');
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)![1]) / 1024;
}

/** The requests the server has answered on /graphql, from its own /metrics. */
async function graphqlRequests(): Promise<number> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  let total = 0;
  for (const [, value] of text.matchAll(/^http_requests_total\{[^}]*route="\/graphql"[^}]*\} (\d+)/gm)) total += Number(value);
  return total;
}

describe('serve graphql under hostile documents', () => {
  it('100,000 aliases or 10 MB: 413 from the length alone, before a byte of the body is read; then the next query', async () => {
    for (const query of [`{ ${'a: Genre(limit: -1) { data { Name } } '.repeat(100_000)}}`, `{ ${'Genre(limit: 1) { data { Name } } '.repeat(300_000)} }`]) {
      const body = JSON.stringify({query});
      expect(body.length).toBeGreaterThan(1024 * 1024);
      // The headers alone, then the answer: the server refuses by Content-Length and closes the
      // connection (fastify's choice: the client would send the body anyway), so a client still
      // writing the body may see its socket closed instead of the 413 — here it sees the answer.
      const answer = await new Promise<{status: number; text: string}>((resolve, reject) => {
        const url = new URL(`${server.url}/graphql`);
        const outgoing = request({
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: 'POST',
          headers: {'content-type': 'application/json', 'content-length': Buffer.byteLength(body)},
        });
        outgoing.on('error', reject);
        outgoing.on('response', (response) => {
          let text = '';
          response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
          response.on('end', () => {
            outgoing.destroy();
            resolve({status: response.statusCode ?? 0, text});
          });
        });
        outgoing.flushHeaders();
      });
      expect(answer.status).toBe(413);
      expect(JSON.parse(answer.text)).toEqual({error: {code: 'payload_too_large', message: 'request body is larger than 1024 KB'}});
      await answersTheNextQuery();
    }
  });

  it('5,000 aliases within the size limit: one GraphQL error from the token limit, before the document is parsed whole', async () => {
    const {status, body} = await post(`{ ${'a: Genre(limit: -1) { data { Name } } '.repeat(5_000)}}`);
    // graphql-http answers a document it cannot parse 200 under application/json (the older media type).
    expect(status).toBe(200);
    expect(body.data).toBeUndefined();
    expect(body.errors).toHaveLength(1);
    expect(body.errors![0]!.message).toMatch(/Document contains more tha[nt] 20000 tokens/);
    await answersTheNextQuery();
  });

  it('100 clients that send an admitted query and hang up at once: still up, the next query answers, memory back near where it was', async () => {
    // The largest query the default bound admits of this shape: every track with its album and artist.
    const heavy = '{ Track(limit: -1) { data { Name Composer Album { Title Artist { Name } } Genre { Name } } } }';
    const warm = await post(heavy);
    expect(warm.body.errors).toBeUndefined();
    await answersTheNextQuery();
    const before = residentMb();
    const counted = await graphqlRequests();
    const payload = JSON.stringify({query: heavy});
    const url = new URL(`${server.url}/graphql`);
    await Promise.all(
      Array.from(
        {length: 100},
        () =>
          new Promise<void>((resolve) => {
            const outgoing = request({
              host: url.hostname,
              port: url.port,
              path: url.pathname,
              method: 'POST',
              headers: {'content-type': 'application/json', 'content-length': Buffer.byteLength(payload)},
            });
            outgoing.on('error', () => resolve());
            outgoing.on('close', () => resolve());
            outgoing.end(payload, () => outgoing.destroy());
          }),
      ),
    );
    // Every one of them has been through the server, by its own count: answered to nobody, or
    // cut when its client was seen gone (499, client closed request).
    await eventually(async () => (await graphqlRequests()) >= counted + 100, 60_000);
    await answersTheNextQuery();
    // Not an exact figure: the heap grows and shrinks on its own; the 3 GB of the issue is what must not come back.
    const after = await eventually(() => {
      const now = residentMb();
      return now < before + 150 ? now : undefined;
    }, 30_000);
    expect(after).toBeLessThan(before + 150);
    // Each hang-up ends its SQLite reader process and the next read starts another: on the shared
    // machine a hundred of them take a while.
  }, 180_000);
});
