// The JetStream sink through nats.js against a real nats-server of the test's own (free port, own
// store directory): subjects, CloudEvents bodies and Nats-Msg-Id read back with a consumer; a replay
// de-duplicated by the stream; the server stopped (SIGTERM) mid-stream while events keep coming and
// started again on the same port and store: nothing lost, nothing doubled, order per table kept.
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {jetstream, jetstreamManager} from '@nats-io/jetstream';
import {connect} from '@nats-io/transport-node';
import knex, {type Knex} from 'knex';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {Dispatcher} from '../../../source/gql/events/dispatcher.js';
import {openSinks} from '../../../source/gql/events/events-service.js';
import {outboxDdl} from '../../../source/gql/events/outbox-contract.js';
import {OutboxStore} from '../../../source/gql/events/outbox-store.js';
import {openGqlService} from '../../../source/gql/service.js';
import type {GqlService, UserContext} from '../../../source/gql/types.js';
import {eventually} from '../../helpers/cli.js';
import {gqlDatabases, settingsFor, type GqlFixture} from '../../helpers/gql-databases.js';
import {natsServerMissing, startNatsServer, type NatsServer} from '../../helpers/nats-server.js';
import {closedPort} from '../../helpers/test-network.js';

const missing = natsServerMissing();
const sqlite = (await gqlDatabases()).find((database) => database.kind === 'sqlite')!;
const user: UserContext = {claims: {sub: 'ann', tenant_id: 'a'}, roles: [], auditKey: 'ann', anonymous: false};

interface StreamMessage {
  seq: number;
  subject: string;
  msgId: string;
  body: string;
}

/** Every message of the stream, read with an ordered consumer. */
async function readStream(url: string, stream: string): Promise<StreamMessage[]> {
  const nc = await connect({servers: url.replace('nats://', '')});
  try {
    const info = await (await jetstreamManager(nc)).streams.info(stream);
    const total = info.state.messages;
    const consumer = await jetstream(nc).consumers.get(stream);
    const out: StreamMessage[] = [];
    while (out.length < total) {
      const batch = await consumer.fetch({max_messages: total - out.length, expires: 2000});
      for await (const message of batch) {
        out.push({seq: message.seq, subject: message.subject, msgId: message.headers?.get('Nats-Msg-Id') ?? '', body: message.string()});
      }
    }
    return out;
  } finally {
    await nc.close();
  }
}

describe.skipIf(missing !== null)('the JetStream sink against a real nats-server', () => {
  let fixture: GqlFixture;
  let db: Knex;
  let service: GqlService;
  let store: OutboxStore;
  let dir: string;
  const cleanups: Array<() => Promise<unknown>> = [];

  async function mutate(query: string) {
    const result = await service.execute({query, user});
    expect(result.errors, query).toBeUndefined();
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'wb-nats-'));
    fixture = await sqlite.createEmpty();
    db = knex(fixture.knexConfig);
    await db.schema.createTable('orders', (t) => {
      t.increments('id').primary();
      t.string('tenant_id', 20).notNullable();
      t.string('status', 20);
    });
    await db.schema.createTable('notes', (t) => {
      t.string('code', 40).primary();
      t.string('body', 200);
    });
    for (const statement of outboxDdl('sqlite', 'main', 'wb_outbox')) await db.raw(statement);
    service = await openGqlService(
      settingsFor(fixture, [
        ':root { outbox-table: main.wb_outbox; }',
        'main.orders { emit-events: insert, update, delete; tenant-filter: tenant_id; }',
        'main.notes { emit-events: insert, delete; }',
      ]),
    );
    store = new OutboxStore(service.db, 'sqlite', service.model.events!.outbox);
  });
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
    await service?.close();
    await db?.destroy();
    await fixture?.drop();
    rmSync(dir, {recursive: true, force: true});
  });

  async function server(port: number, storeDir: string): Promise<NatsServer> {
    const started = await startNatsServer(port, storeDir);
    cleanups.push(() => started.stop('SIGKILL'));
    return started;
  }

  async function dispatcher(url: string, options: ConstructorParameters<typeof Dispatcher>[3] = {}) {
    const sinks = await openSinks({...service.settings, cdc: {natsUrl: url}}, service.model);
    const made = new Dispatcher(store, service.model, sinks, options);
    cleanups.push(() => made.stop());
    return made;
  }

  it('publishes each event on workbench.cdc.<schema>.<table>.<op> with Nats-Msg-Id = outbox id; a replay adds nothing to the stream', async () => {
    await db('wb_outbox').del();
    const nats = await server(await closedPort(), join(dir, 'one'));
    await mutate('mutation { orders(insert: {status: "new"}) }');
    await mutate('mutation { orders(update: {id: 1, status: "paid"}) }');
    await mutate('mutation { notes(insert: {code: "n1", body: "hi"}) }');
    await mutate('mutation { notes(delete: {code: "n1"}) }');
    await mutate('mutation { orders(delete: {id: 1}) }');
    const sending = await dispatcher(nats.url);
    expect(await sending.runOnce()).toMatchObject({delivered: 5, failed: 0});
    const events = await store.list({state: 'all', limit: 10});
    expect(events.every((event) => event.dispatchedAt !== null)).toBe(true);

    const messages = await readStream(nats.url, 'WORKBENCH_CDC');
    expect(messages).toHaveLength(5);
    expect(messages.map((message) => message.msgId).sort()).toEqual(events.map((event) => String(event.id)).sort());
    for (const event of events) {
      const message = messages.find((candidate) => candidate.msgId === String(event.id))!;
      expect(message.subject).toBe(`workbench.cdc.main.${event.aggregate.split('.')[1]}.${event.op}`);
      expect(JSON.parse(message.body)).toMatchObject({specversion: '1.0', id: String(event.id), type: `workbench.gql.${event.op}`, data: event.payload});
    }
    // Order per table in the stream.
    for (const table of ['orders', 'notes']) {
      const ids = messages.filter((message) => message.subject.includes(`.${table}.`)).map((message) => Number(message.msgId));
      expect(ids).toEqual([...ids].sort((x, y) => x - y));
    }

    expect(await store.replay(events[0]!.id)).toBe(5);
    expect(await sending.runOnce()).toMatchObject({delivered: 5, failed: 0});
    expect(await readStream(nats.url, 'WORKBENCH_CDC')).toHaveLength(5);
  });

  it('the server stopped (SIGTERM) mid-stream and started again on the same port and store: nothing lost, no duplicate', {timeout: 120_000}, async () => {
    await db('wb_outbox').del();
    const port = await closedPort();
    const storeDir = join(dir, 'two');
    let nats = await server(port, storeDir);
    const url = `${nats.url}?stream=CDC_RESTART&subject=wb.restart`;
    const logs: string[] = [];
    const running = await dispatcher(url, {pollMs: 10, baseDelayMs: 50, maxDelayMs: 500, maxAttempts: 10_000, log: (line) => logs.push(line)});
    const unsubscribe = service.onEvents?.(() => running.wake());
    running.start();

    let writing = true;
    let written = 0;
    const writer = (async () => {
      while (writing) {
        await mutate(`mutation { notes(insert: {code: "k${written}"}) }`);
        await mutate(`mutation { orders(insert: {status: "s${written}"}) }`);
        written += 2;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();
    await eventually(async () => (await store.list({state: 'dispatched', limit: 40})).length >= 40, 30_000);
    await nats.stop('SIGTERM');
    const atStop = written;
    // Events keep coming while the server is away.
    await eventually(() => written >= atStop + 60, 30_000, 20);
    nats = await server(port, storeDir);
    await eventually(() => written >= atStop + 120, 30_000, 20);
    writing = false;
    await writer;
    await eventually(async () => (await store.list({state: 'pending', limit: 1})).length === 0, 90_000, 200);
    unsubscribe?.();
    await running.stop();

    const events = await store.list({state: 'all', limit: 100_000});
    expect(events).toHaveLength(written);
    const messages = await readStream(nats.url, 'CDC_RESTART');
    const ids = messages.map((message) => message.msgId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(ids)).toEqual(new Set(events.map((event) => String(event.id))));
    for (const table of ['orders', 'notes']) {
      const order = messages.filter((message) => message.subject === `wb.restart.main.${table}.insert`).map((message) => Number(message.msgId));
      expect(order).toEqual([...order].sort((x, y) => x - y));
    }
    // The outage was seen, and said.
    expect(logs.some((line) => /not delivered/.test(line))).toBe(true);
  });
});
