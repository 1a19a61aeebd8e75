// GraphQL subscriptions over WebSocket (graphql-ws, as GraphiQL speaks it) on the real server with
// real tokens: tenant A's subscriber sees A's changes made over HTTP, never tenant B's; the upgrade
// passes the Host/Origin guard (another site's page cannot open the socket); a refused token closes
// it with 4403; and the server delivers change events to a webhook while it runs.
import {createServer, type Server} from 'node:http';
import {mkdtempSync, rmSync} from 'node:fs';
import type {AddressInfo} from 'node:net';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {createClient, type Client} from 'graphql-ws';
import knex from 'knex';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import WebSocket from 'ws';
import {startOidcIssuer, type OidcIssuer} from '../../../fixtures/oidc-issuer/issuer.js';
import {startGraphqlServer, type GraphqlServer} from '../../../servers/graphql/index.js';
import {outboxDdl} from '../../../source/gql/events/outbox-contract.js';
import {openGqlService} from '../../../source/gql/service.js';
import {gqlTestSettings} from '../../helpers/gql-test-service.js';

const AUDIENCE = 'workbench-api';
let dir: string;
let issuer: OidcIssuer;
let server: GraphqlServer;
let receiver: Server;
const received: Array<{headers: Record<string, string | string[] | undefined>; body: string}> = [];
const clients: Client[] = [];

async function until<T>(read: () => T | undefined, what: string, boundMs = 20_000): Promise<T> {
  const deadline = Date.now() + boundMs;
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'wb-gql-ws-'));
  issuer = await startOidcIssuer();
  receiver = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      received.push({headers: request.headers, body});
      response.end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const file = join(dir, 'shop.sqlite');
  const db = knex({client: 'better-sqlite3', connection: {filename: file}, useNullAsDefault: true});
  await db.schema.createTable('orders', (t) => {
    t.increments('id').primary();
    t.string('tenant_id', 20).notNullable();
    t.string('status', 20).notNullable();
  });
  for (const statement of outboxDdl('sqlite', 'main', 'wb_outbox')) await db.raw(statement);
  await db.destroy();
  const settings = gqlTestSettings({
    connectionString: `Data Source=${file}`,
    disableAuth: false,
    jwt: {authority: issuer.authority, audience: AUDIENCE},
    metadata: [':root { outbox-table: wb_outbox; webhook-secret: s3cret; }', 'main.orders { emit-events: insert, update, delete; tenant-filter: tenant_id; }'],
    cdc: {webhookUrl: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`},
  });
  server = await startGraphqlServer({service: await openGqlService(settings, {poolMax: 2}), port: 0, playground: {js: '', css: ''}, warn: () => {}});
});

afterAll(async () => {
  for (const client of clients) await client.dispose();
  await server?.close();
  await issuer?.close();
  await new Promise((resolve) => receiver?.close(resolve));
  rmSync(dir, {recursive: true, force: true});
});

const wsUrl = () => `${server.url.replace(/^http/, 'ws')}/graphql`;
const token = (tenant: string) => issuer.mint({sub: `user-${tenant}`, tenant_id: tenant});

async function mutate(tenant: string, query: string): Promise<Record<string, unknown>> {
  const response = await fetch(`${server.url}/graphql`, {
    method: 'POST',
    headers: {'content-type': 'application/json', authorization: `Bearer ${await token(tenant)}`},
    body: JSON.stringify({query}),
  });
  return (await response.json()) as Record<string, unknown>;
}

/** The status an upgrade is answered with, or 101 when it was accepted. */
function upgradeStatus(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, 'graphql-transport-ws', {headers});
    socket.on('open', () => {
      socket.close();
      resolve(101);
    });
    socket.on('unexpected-response', (_request, response) => {
      resolve(response.statusCode ?? 0);
      socket.terminate();
    });
    socket.on('error', (error) => {
      if (!/Unexpected server response/.test(error.message)) reject(error);
    });
  });
}

describe('subscriptions over WebSocket', () => {
  it('tenant A sees its own changes, made over HTTP, and never tenant B’s', async () => {
    const client = createClient({url: wsUrl(), webSocketImpl: WebSocket, connectionParams: {Authorization: `Bearer ${await token('a')}`}, retryAttempts: 0});
    clients.push(client);
    const seen: Array<Record<string, unknown>> = [];
    const errors: unknown[] = [];
    const started = new Promise<void>((resolve) => {
      client.on('connected', () => resolve());
    });
    client.subscribe(
      {query: 'subscription { ordersChanged { op row { id tenant_id status } } }'},
      {next: (result) => seen.push(result.data?.ordersChanged as Record<string, unknown>), error: (error) => errors.push(error), complete: () => {}},
    );
    await started;
    // The subscription is registered a moment after the connection: wait until a probe write of A
    // arrives. A probe may arrive after a later one was written: what counts starts after them all.
    const status = (change: Record<string, unknown>) => (change.row as {status: string}).status;
    for (let attempt = 0; seen.length === 0 && attempt < 100; attempt++) {
      await mutate('a', `mutation { orders(insert: {status: "probe-${attempt}"}) }`);
      await until(() => (seen.length > 0 ? true : undefined), 'a probe', 100).catch(() => undefined);
    }
    expect((await mutate('b', 'mutation { orders(insert: {status: "b-secret"}) }')).errors).toBeUndefined();
    const id = (await mutate('a', 'mutation { orders(insert: {status: "a-order"}) }')).data as {orders: number};
    await mutate('b', 'mutation { orders(update: {id: 1, status: "b-changed"}) }');
    await mutate('a', `mutation { orders(update: {id: ${id.orders}, status: "a-paid"}) }`);
    // A last change of A's: once it is here, everything written before it has been sent, in order.
    await mutate('a', 'mutation { orders(insert: {status: "a-last"}) }');
    await until(() => (seen.some((change) => status(change) === 'a-last') ? true : undefined), "tenant A's last change");
    expect(errors).toEqual([]);
    expect(seen.filter((change) => !status(change).startsWith('probe-')).map((change) => [change.op, status(change)])).toEqual([
      ['insert', 'a-order'],
      ['update', 'a-paid'],
      ['insert', 'a-last'],
    ]);
    expect(JSON.stringify(seen)).not.toContain('b-');
  });

  it('the server delivers the same changes to the webhook, signed, while it runs', async () => {
    const hook = await until(() => received.find((delivery) => delivery.body.includes('a-paid')), 'the webhook delivery of the update');
    expect(hook.headers['content-type']).toBe('application/cloudevents+json; charset=utf-8');
    expect(hook.headers['x-workbench-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(JSON.parse(hook.body)).toMatchObject({specversion: '1.0', type: 'workbench.gql.update', data: {op: 'update', after: {status: 'a-paid'}}});
    expect(hook.headers['idempotency-key']).toBe(JSON.parse(hook.body).id);
  });

  it('another site’s page cannot open the socket; a foreign Host is refused; other paths are 404', async () => {
    expect(await upgradeStatus(wsUrl(), {origin: 'http://evil.example'})).toBe(403);
    expect(await upgradeStatus(wsUrl(), {host: 'evil.example'})).toBe(403);
    expect(await upgradeStatus(`${server.url.replace(/^http/, 'ws')}/elsewhere`, {})).toBe(404);
    expect(await upgradeStatus(wsUrl(), {origin: server.url})).toBe(101);
  });

  it('a refused token closes the socket with 4403 and the reason', async () => {
    const closed = await new Promise<{code: number; reason: string}>((resolve) => {
      const client = createClient({
        url: wsUrl(),
        webSocketImpl: WebSocket,
        connectionParams: {Authorization: 'Bearer not-a-token'},
        retryAttempts: 0,
        lazy: false,
        onNonLazyError: () => {},
      });
      clients.push(client);
      client.on('closed', (event) => {
        const close = event as {code: number; reason: string};
        resolve({code: close.code, reason: close.reason});
      });
    });
    expect(closed.code).toBe(4403);
    expect(closed.reason).toMatch(/token/i);
  });
});
