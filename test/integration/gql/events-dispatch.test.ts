// The dispatcher against a real webhook receiver (node:http on 127.0.0.1) on SQLite, PostgreSQL and
// MariaDB: signatures checked as a consumer would (rotation, tampering), the CloudEvents body, the
// subscription filters, retries with backoff through a 500, a hang and a minute of downtime (a
// fake clock: no test waits a minute), dead letters, retry and replay, order per row with rows side
// by side (a held row does not hold the others), and several dispatchers at once against one
// outbox (PostgreSQL, MariaDB) keeping order per row without duplicates.
import knex, {type Knex} from 'knex';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {Dispatcher, type DispatcherOptions} from '../../../source/gql/events/dispatcher.js';
import {openSinks} from '../../../source/gql/events/events-service.js';
import {outboxDdl} from '../../../source/gql/events/outbox-contract.js';
import {OutboxStore} from '../../../source/gql/events/outbox-store.js';
import {openGqlService} from '../../../source/gql/service.js';
import type {GqlService, UserContext} from '../../../source/gql/types.js';
import {eventually} from '../../helpers/cli.js';
import {
  accepted,
  ascending,
  duplicates,
  firstArrivalsByAggregate,
  firstArrivalsByRow,
  startReceiver,
  verifyStandardWebhook,
  verifyWorkbenchSignature,
  type Arrival,
  type Receiver,
} from '../../helpers/event-receiver.js';
import {gqlDatabases, settingsFor, type GqlFixture} from '../../helpers/gql-databases.js';
import {closedPort} from '../../helpers/test-network.js';

const databases = await gqlDatabases();
const user = (tenant: string): UserContext => ({claims: {sub: `u-${tenant}`, tenant_id: tenant}, roles: [], auditKey: tenant, anonymous: false});

function schemaOf(fixture: GqlFixture): string {
  if (fixture.provider === 'sqlite') return 'main';
  if (fixture.provider === 'postgres') return 'public';
  return fixture.database;
}

/** A clock the test moves: a minute of downtime passes in six rounds. */
function fakeClock() {
  let at = Date.now();
  return {now: () => new Date(at), advance: (ms: number) => (at += ms)};
}

describe.each(databases)('dispatching the outbox in $kind', (database) => {
  const maybe = database.unavailable ? it.skip : it;
  let fixture: GqlFixture | undefined;
  let db: Knex;
  let schema: string;
  const cleanups: Array<() => Promise<unknown>> = [];

  const fresh = async () => {
    for (const table of ['wb_outbox', 'orders', 'notes', 'items']) await db(table).del();
  };

  async function open(extra: string[] = []): Promise<{service: GqlService; store: OutboxStore}> {
    const service = await openGqlService(
      settingsFor(fixture!, [
        `:root { outbox-table: ${schema}.wb_outbox; webhook-secret: old, new; }`,
        `${schema}.orders { emit-events: insert, update, delete; tenant-filter: tenant_id; bulk-batch-threshold: 5; }`,
        `${schema}.notes { emit-events: insert, update, delete; }`,
        `${schema}.items { emit-events: insert; tenant-filter: tenant_id; }`,
        ...extra,
      ]),
      {poolMax: 4},
    );
    cleanups.push(() => service.close());
    return {service, store: new OutboxStore(service.db, service.settings.provider, service.model.events!.outbox)};
  }

  async function dispatcherFor(service: GqlService, store: OutboxStore, url: string, options: DispatcherOptions & {webhookTimeoutMs?: number} = {}) {
    const sinks = await openSinks({...service.settings, cdc: {webhookUrl: url}}, service.model, {webhookTimeoutMs: options.webhookTimeoutMs ?? 5000});
    const dispatcher = new Dispatcher(store, service.model, sinks, options);
    cleanups.push(() => dispatcher.stop());
    return dispatcher;
  }

  async function receiver(): Promise<Receiver> {
    const started = await startReceiver();
    cleanups.push(() => started.close());
    return started;
  }

  async function mutate(service: GqlService, query: string, tenant = 'a') {
    const result = await service.execute({query, user: user(tenant)});
    expect(result.errors, query).toBeUndefined();
    return result.data;
  }

  /** Rounds of the dispatcher, the fake clock moving `stepMs` after each, until `done` (bounded). */
  async function rounds(dispatcher: Dispatcher, clock: ReturnType<typeof fakeClock>, done: () => boolean | Promise<boolean>, stepMs = 10_000, max = 60) {
    for (let round = 0; round < max; round++) {
      await dispatcher.runOnce();
      if (await done()) return round + 1;
      clock.advance(stepMs);
    }
    throw new Error(`not done after ${max} rounds`);
  }

  beforeAll(async () => {
    if (database.unavailable) {
      console.warn(`skipping the dispatcher tests on ${database.kind}: ${database.unavailable}`);
      return;
    }
    fixture = await database.createEmpty();
    db = knex(fixture.knexConfig);
    schema = schemaOf(fixture);
    await db.schema.createTable('orders', (t) => {
      t.increments('id').primary();
      t.string('tenant_id', 20).notNullable();
      t.string('status', 20).notNullable().defaultTo('new');
      t.integer('amount');
      t.string('secret', 40);
    });
    await db.schema.createTable('notes', (t) => {
      t.string('code', 20).primary();
      t.string('body', 200);
    });
    await db.schema.createTable('items', (t) => {
      t.increments('id').primary();
      t.string('tenant_id', 20).notNullable();
      t.string('name', 40);
    });
    for (const statement of outboxDdl(fixture.provider, schema, 'wb_outbox')) await db.raw(statement);
  });
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
    await db?.destroy();
    await fixture?.drop();
  });

  maybe('signed CloudEvents: receivers knowing only the old or only the new secret both verify; a tampered body does not', async () => {
    await fresh();
    const {service, store} = await open();
    const hook = await receiver();
    const id = (await mutate(service, `mutation { orders(insert: {status: "new", amount: 3, secret: "s3"}) }`))?.orders as number;
    await mutate(service, `mutation { notes(insert: {code: "n1", body: "hello"}) }`);
    const dispatcher = await dispatcherFor(service, store, hook.url);
    const round = await dispatcher.runOnce();
    expect(round).toMatchObject({delivered: 2, failed: 0, filtered: 0});
    const events = await store.list({state: 'all', limit: 10});
    expect(events.every((event) => event.dispatchedAt !== null)).toBe(true);
    expect(hook.arrivals).toHaveLength(2);

    for (const arrival of hook.arrivals) {
      expect(verifyWorkbenchSignature('old', arrival)).toBe(true);
      expect(verifyWorkbenchSignature('new', arrival)).toBe(true);
      expect(verifyStandardWebhook('old', arrival)).toBe(true);
      expect(verifyStandardWebhook('new', arrival)).toBe(true);
      expect(verifyWorkbenchSignature('other', arrival)).toBe(false);
      expect(verifyStandardWebhook('other', arrival)).toBe(false);
      // One byte changed, or the signed timestamp outside the tolerance: refused.
      const tampered: Pick<Arrival, 'headers' | 'body'> = {headers: arrival.headers, body: arrival.body.replace('"1.0"', '"1.1"')};
      expect(verifyWorkbenchSignature('old', tampered)).toBe(false);
      expect(verifyStandardWebhook('new', tampered)).toBe(false);
      expect(verifyStandardWebhook('new', arrival, Date.now() / 1000 + 3600)).toBe(false);
      expect(arrival.headers['content-type']).toMatch(/^application\/cloudevents\+json/);
    }

    const [order, note] = events;
    const first = hook.arrivals[0]!;
    expect(first.key).toBe(String(order!.id));
    expect(first.headers['webhook-id']).toBe(String(order!.id));
    const body = JSON.parse(first.body) as Record<string, unknown>;
    expect(body).toEqual({
      specversion: '1.0',
      id: String(order!.id),
      type: 'workbench.gql.insert',
      source: `/gql/${schema}/orders`,
      subject: order!.aggregateId,
      time: new Date(order!.createdAt).toISOString(),
      datacontenttype: 'application/json',
      data: order!.payload,
    });
    expect(JSON.parse(order!.aggregateId)).toEqual({id});
    expect((body.data as {after: Record<string, unknown>}).after).toMatchObject({id, status: 'new', amount: 3, secret: 's3', tenant_id: 'a'});
    expect(Number.isNaN(Date.parse(body.time as string))).toBe(false);
    expect(hook.arrivals[1]!.key).toBe(String(note!.id));
    expect(JSON.parse(hook.arrivals[1]!.body)).toMatchObject({source: `/gql/${schema}/notes`, subject: JSON.stringify({code: 'n1'})});
  });

  maybe('subscription filters: tables allow-list, tenant, redaction (never the key); filtered events are done and never sent', async () => {
    await fresh();
    const {service, store} = await open([`:root { subscription-tables: ${schema}.orders, ${schema}.items; subscription-tenant: a; subscription-redact: secret, id, name; }`]);
    const hook = await receiver();
    await mutate(service, `mutation { orders(insert: {status: "a1", secret: "hush"}) }`, 'a');
    await mutate(service, `mutation { orders(insert: {status: "b1", secret: "hush"}) }`, 'b');
    await mutate(service, `mutation { notes(insert: {code: "n1", body: "not listed"}) }`);
    await mutate(service, `mutation { items(insert: {name: "widget"}) }`, 'a');
    await mutate(service, `mutation { items(insert: {name: "gadget"}) }`, 'b');
    const dispatcher = await dispatcherFor(service, store, hook.url);
    const round = await dispatcher.runOnce();
    expect(round).toMatchObject({delivered: 2, filtered: 3, failed: 0});
    const events = await store.list({state: 'all', limit: 10});
    expect(events).toHaveLength(5);
    expect(events.every((event) => event.dispatchedAt !== null && event.attempts === 0)).toBe(true);
    expect(await store.list({state: 'pending', limit: 10})).toEqual([]);

    expect(hook.arrivals.map((arrival) => arrival.key)).toEqual([String(events[0]!.id), String(events[3]!.id)]);
    const bodies = hook.arrivals.map((arrival) => JSON.parse(arrival.body) as {source: string; data: {key: Record<string, unknown>; after: Record<string, unknown>}});
    expect(bodies.map((body) => body.source)).toEqual([`/gql/${schema}/orders`, `/gql/${schema}/items`]);
    for (const body of bodies) {
      expect(body.data.after).not.toHaveProperty('secret');
      expect(body.data.after).not.toHaveProperty('name');
      // The key column is named in subscription-redact but never stripped.
      expect(body.data.after.id).toBe(body.data.key.id);
      expect(body.data.after.tenant_id).toBe('a');
    }
    expect(bodies[0]!.data.after.status).toBe('a1');
    // The signature covers the redacted body the receiver got.
    for (const arrival of hook.arrivals) expect(verifyStandardWebhook('new', arrival)).toBe(true);
  });

  maybe('a webhook answering 500 then 200: retried with backoff, then each event delivered once, in order per row', async () => {
    await fresh();
    const {service, store} = await open();
    const hook = await receiver();
    let refusals = 3;
    hook.answer = () => (refusals-- > 0 ? 500 : 200);
    // Three rows (one changed three times more): the first round's three requests, one per row, are all refused.
    const id = (await mutate(service, `mutation { orders(insert: {status: "s0"}) }`))?.orders as number;
    for (let i = 1; i < 4; i++) await mutate(service, `mutation { orders(update: {id: ${id}, status: "s${i}"}) }`);
    await mutate(service, `mutation { orders(insert: {status: "other"}) }`);
    await mutate(service, `mutation { notes(insert: {code: "n1"}) }`);
    const clock = fakeClock();
    const logs: string[] = [];
    const dispatcher = await dispatcherFor(service, store, hook.url, {now: clock.now, baseDelayMs: 1000, log: (line) => logs.push(line)});
    const events = await store.list({state: 'all', limit: 10});
    const first = events[0]!;

    // First round: the head of every row is refused; each waits out its backoff.
    await dispatcher.runOnce();
    const waiting = (await store.list({state: 'pending', limit: 10})).find((event) => event.id === first.id)!;
    expect(waiting.attempts).toBe(1);
    expect(waiting.lastError).toMatch(/answered 500/);
    expect(new Date(waiting.nextAttemptAt!).getTime()).toBeGreaterThan(clock.now().getTime());
    // Not due yet: a round now leaves it alone.
    const arrivalsBefore = hook.arrivals.length;
    await dispatcher.runOnce();
    expect(hook.arrivals).toHaveLength(arrivalsBefore);

    await rounds(dispatcher, clock, async () => (await store.list({state: 'pending', limit: 10})).length === 0);
    const ok = accepted(hook);
    expect(ok.map((arrival) => arrival.key).sort()).toEqual(events.map((event) => String(event.id)).sort());
    expect(duplicates(ok)).toEqual([]);
    const byRow = firstArrivalsByRow(ok);
    expect(byRow.size).toBe(3);
    expect(byRow.get(`/gql/${schema}/orders ${JSON.stringify({id})}`)).toEqual(events.slice(0, 4).map((event) => event.id));
    for (const ids of byRow.values()) expect(ascending(ids)).toBe(true);
    expect(logs.some((line) => /not delivered \(attempt 1\)/.test(line))).toBe(true);
  });

  maybe('a webhook that never answers: the timeout fails the delivery and it is retried', async () => {
    await fresh();
    const {service, store} = await open();
    const hook = await receiver();
    let hung = 0;
    // No answer at all, then a 200 whose body never ends: both time out and are tried again.
    hook.answer = () => (hung++ === 0 ? 'hang' : hung === 2 ? 'stall' : 200);
    // One row's two events: the second waits behind the first.
    const id = (await mutate(service, `mutation { orders(insert: {status: "x"}) }`))?.orders as number;
    await mutate(service, `mutation { orders(update: {id: ${id}, status: "y"}) }`);
    const clock = fakeClock();
    const dispatcher = await dispatcherFor(service, store, hook.url, {now: clock.now, baseDelayMs: 1000, webhookTimeoutMs: 300});
    const round = await dispatcher.runOnce();
    expect(round.failed).toBe(1);
    const [head] = await store.list({state: 'pending', limit: 10});
    expect(head?.lastError).toMatch(/no answer within 300 ms/);
    clock.advance(10_000);
    expect((await dispatcher.runOnce()).failed).toBe(1);
    expect((await store.list({state: 'pending', limit: 10}))[0]).toMatchObject({attempts: 2, lastError: expect.stringMatching(/no answer within 300 ms/)});
    await rounds(dispatcher, clock, async () => (await store.list({state: 'pending', limit: 10})).length === 0);
    const ok = accepted(hook);
    expect(ok.map((arrival) => arrival.key)).toEqual((await store.list({state: 'all', limit: 10})).map((event) => String(event.id)));
  });

  maybe('a webhook down for a minute (fake clock): everything delivered exactly once afterwards, in id order per row', async () => {
    await fresh();
    const {service, store} = await open();
    const port = await closedPort();
    for (let i = 0; i < 5; i++) {
      await mutate(service, `mutation { orders(insert: {status: "o${i}"}) }`);
      await mutate(service, `mutation { notes(insert: {code: "n${i}"}) }`);
      await mutate(service, `mutation { items(insert: {name: "i${i}"}) }`);
      // One row of notes changed every time: five more events of one row.
      await mutate(service, `mutation { notes(update: {code: "n0", body: "v${i}"}) }`);
    }
    const clock = fakeClock();
    const dispatcher = await dispatcherFor(service, store, `http://127.0.0.1:${port}/hook`, {now: clock.now, baseDelayMs: 1000, maxAttempts: 20});
    const downUntil = clock.now().getTime() + 60_000;
    while (clock.now().getTime() < downUntil) {
      const round = await dispatcher.runOnce();
      expect(round.delivered).toBe(0);
      clock.advance(10_000);
    }
    const pending = await store.list({state: 'pending', limit: 100});
    expect(pending).toHaveLength(20);
    expect(Math.max(...pending.map((event) => event.attempts))).toBeGreaterThan(2);
    expect(pending.some((event) => event.dead)).toBe(false);

    const hook = await startReceiver(port);
    cleanups.push(() => hook.close());
    await rounds(dispatcher, clock, async () => (await store.list({state: 'pending', limit: 100})).length === 0);
    const ok = accepted(hook);
    expect(ok).toHaveLength(20);
    expect(duplicates(ok)).toEqual([]);
    expect(firstArrivalsByAggregate(ok).size).toBe(3);
    const byRow = firstArrivalsByRow(ok);
    expect(byRow.size).toBe(15);
    expect(byRow.get(`/gql/${schema}/notes ${JSON.stringify({code: 'n0'})}`)).toHaveLength(6);
    for (const ids of byRow.values()) expect(ascending(ids)).toBe(true);
  });

  maybe('dead letter after maxAttempts, other rows never wait for it; retry brings it back; replay sends again with the same Idempotency-Key', async () => {
    await fresh();
    const {service, store} = await open();
    const hook = await receiver();
    await mutate(service, `mutation { orders(insert: {status: "poison"}) }`);
    await mutate(service, `mutation { orders(insert: {status: "fine"}) }`);
    const [poison, fine] = await store.list({state: 'all', limit: 10});
    let refuse = true;
    hook.answer = (arrival) => (refuse && arrival.key === String(poison!.id) ? 422 : 200);
    const clock = fakeClock();
    const logs: string[] = [];
    const dispatcher = await dispatcherFor(service, store, hook.url, {now: clock.now, baseDelayMs: 10, maxAttempts: 3, log: (line) => logs.push(line)});
    // Another row: delivered in the first round while the poison is refused.
    expect(await dispatcher.runOnce()).toMatchObject({delivered: 1, failed: 1});
    expect(accepted(hook).map((arrival) => arrival.key)).toEqual([String(fine!.id)]);
    clock.advance(10_000);
    await rounds(dispatcher, clock, async () => (await store.list({state: 'pending', limit: 10})).length === 0);
    const [dead] = await store.list({state: 'dead', limit: 10});
    expect(dead).toMatchObject({id: poison!.id, attempts: 3, dead: true});
    expect(dead!.lastError).toMatch(/answered 422/);
    expect(logs.some((line) => line.includes(`event ${poison!.id}`) && line.includes('dead letter after 3 attempts'))).toBe(true);
    expect(hook.arrivals.filter((arrival) => arrival.key === String(poison!.id))).toHaveLength(3);
    expect(accepted(hook).map((arrival) => arrival.key)).toEqual([String(fine!.id)]);

    refuse = false;
    await expect(store.retry(fine!.id)).rejects.toThrow(/was delivered at .*use replay --from/);
    await store.retry(poison!.id);
    expect(await store.list({state: 'dead', limit: 10})).toEqual([]);
    await dispatcher.runOnce();
    expect(accepted(hook).map((arrival) => arrival.key)).toEqual([String(fine!.id), String(poison!.id)]);

    expect(await store.replay(poison!.id)).toBe(2);
    await dispatcher.runOnce();
    const keys = accepted(hook).map((arrival) => arrival.key);
    // The two rows side by side: in either order.
    expect(keys.slice(0, 2)).toEqual([String(fine!.id), String(poison!.id)]);
    expect(keys.slice(2).sort()).toEqual([String(fine!.id), String(poison!.id)].sort());
    // The replayed deliveries carry the ids (and so the keys and webhook-ids) they had.
    const replayed = accepted(hook).slice(2);
    const again = replayed.find((arrival) => arrival.key === String(poison!.id));
    const fineAgain = replayed.find((arrival) => arrival.key === String(fine!.id));
    expect(again!.headers['webhook-id']).toBe(String(poison!.id));
    expect(JSON.parse(fineAgain!.body).id).toBe(String(fine!.id));
  });

  maybe('a claim cut short by maxRows does not leave another aggregate leased and undelivered', async () => {
    await fresh();
    const {service, store} = await open();
    const hook = await receiver();
    for (let i = 0; i < 5; i++) await mutate(service, `mutation { orders(insert: {status: "o${i}"}) }`);
    await mutate(service, `mutation { notes(insert: {code: "late"}) }`);
    const clock = fakeClock();
    // The clock never moves: a head leased but not delivered would wait out its whole lease.
    const dispatcher = await dispatcherFor(service, store, hook.url, {now: clock.now, maxRows: 3, leaseMs: 60_000});
    for (let round = 0; round < 5; round++) await dispatcher.runOnce();
    expect(await store.list({state: 'pending', limit: 10})).toEqual([]);
    expect(accepted(hook)).toHaveLength(6);
  });

  maybe('rows side by side, each row in order: a row whose delivery is held does not hold the others; at most `concurrency` in flight', async () => {
    await fresh();
    const {service, store} = await open();
    const hook = await receiver();
    // Row "held": an insert and four updates. Rows r1..r4: one insert each.
    await mutate(service, `mutation { notes(insert: {code: "held", body: "v0"}) }`);
    for (let i = 1; i < 5; i++) await mutate(service, `mutation { notes(update: {code: "held", body: "v${i}"}) }`);
    for (let i = 1; i < 5; i++) await mutate(service, `mutation { notes(insert: {code: "r${i}"}) }`);
    const events = await store.list({state: 'all', limit: 20});
    const rowOf = (arrival: Arrival) => (JSON.parse(JSON.parse(arrival.body).subject as string) as {code: string}).code;
    const others = new Set(['r1', 'r2', 'r3', 'r4']);
    let othersArrived: () => void = () => undefined;
    const allOthers = new Promise<void>((resolve) => (othersArrived = resolve));
    const seen = new Set<string>();
    const inFlight = new Map<string, number>();
    let most = 0;
    let mostOfOneRow = 0;
    hook.answer = async (arrival) => {
      const row = rowOf(arrival);
      inFlight.set(row, (inFlight.get(row) ?? 0) + 1);
      most = Math.max(
        most,
        [...inFlight.values()].reduce((sum, count) => sum + count, 0),
      );
      mostOfOneRow = Math.max(mostOfOneRow, ...inFlight.values());
      seen.add(row);
      if ([...others].every((other) => seen.has(other))) othersArrived();
      // The held row's first delivery is answered only once every other row has arrived: delivered
      // one row after another, it would wait for them forever (and time out, failing the round).
      if (row === 'held' && arrival.key === String(events[0]!.id)) await allOthers;
      inFlight.set(row, (inFlight.get(row) ?? 1) - 1);
      return 200;
    };
    const dispatcher = await dispatcherFor(service, store, hook.url, {concurrency: 3, webhookTimeoutMs: 3000});
    expect(await dispatcher.runOnce()).toMatchObject({delivered: 9, failed: 0});
    const ok = accepted(hook);
    expect(ok.map((arrival) => arrival.key).sort()).toEqual(events.map((event) => String(event.id)).sort());
    // Every other row arrived before the held row's first event was answered, so before its second was sent.
    const second = ok.findIndex((arrival) => arrival.key === String(events[1]!.id));
    expect(new Set(ok.slice(0, second).map(rowOf))).toEqual(new Set(['held', ...others]));
    // The held row in id order, one delivery at a time; never more than three rows at once.
    expect(ok.filter((arrival) => rowOf(arrival) === 'held').map((arrival) => arrival.key)).toEqual(events.slice(0, 5).map((event) => String(event.id)));
    expect(mostOfOneRow).toBe(1);
    expect(most).toBeGreaterThan(1);
    expect(most).toBeLessThanOrEqual(3);
  });

  const onPostgres = database.unavailable || database.kind !== 'postgres' ? it.skip : it;
  onPostgres('the outbox written as one JSON document (PostgreSQL, contract types) holds the same rows as with bound parameters', async () => {
    const {service} = await open([`${schema}.orders { filtered-update: enabled; }`]);
    expect(service.model.events?.outbox.jsonRows).toBe(true);
    const script = async () => {
      await mutate(
        service,
        `mutation { orders_batch(actions: [${Array.from({length: 7}, (_, i) => `{insert: {status: "s${i}", amount: ${i}, secret: "q\\"uote\\u00e9 ${i}"}}`).join(', ')}]) }`,
      );
      await mutate(service, `mutation { notes(insert: {code: "n'1", body: null}) }`);
      await mutate(service, `mutation { orders(updateWhere: {set: {status: "done"}, where: {amount: {_lt: 3}}}) }`);
      await mutate(service, `mutation { notes(delete: {code: "n'1"}) }`);
    };
    const read = async () =>
      (await db('wb_outbox').select('*').orderBy('id')).map((row: Record<string, unknown>) => ({
        ...row,
        id: undefined,
        created_at: undefined,
        payload: JSON.stringify(row.payload)
          .replace(/"id":\d+/g, '"id":0')
          .replace(/\\"id\\":\d+/g, ''),
        aggregate_id: String(row.aggregate_id).replace(/\d+/g, '0'),
      }));
    await fresh();
    await script();
    const asDocument = await read();
    await fresh();
    delete (service.model.events!.outbox as {jsonRows?: true}).jsonRows;
    await script();
    const asParameters = await read();
    expect(asDocument).toHaveLength(7 + 1 + 3 + 1);
    expect(asDocument).toEqual(asParameters);
    expect(asDocument[0]!.payload).toContain('q\\"uote\u00e9 0');
  });

  // Ids are handed out when a transaction writes its events, not when it commits: a transaction
  // holding id N may commit after another one's N+1. The dispatcher delivers nothing above a
  // missing id until it commits (or is given up after gapWaitMs: a rollback leaves it unused).
  const onServers = database.unavailable || database.kind === 'sqlite' ? it.skip : it;
  onServers('order per table when an earlier id commits after a later one: the later waits for it', async () => {
    await fresh();
    const {service, store} = await open();
    const hook = await receiver();
    const dispatcher = await dispatcherFor(service, store, hook.url);
    // A dispatcher that has been running: it delivered an event before.
    await mutate(service, `mutation { notes(insert: {code: "earlier"}) }`);
    await dispatcher.runOnce();
    expect(accepted(hook)).toHaveLength(1);
    hook.arrivals.length = 0;
    const slow = await db.transaction();
    try {
      await slow('wb_outbox').insert({
        aggregate: `${schema}.notes`,
        aggregate_id: '{"code":"slow"}',
        op: 'insert',
        payload: JSON.stringify({table: `${schema}.notes`, op: 'insert', key: {code: 'slow'}}),
      });
      await mutate(service, `mutation { notes(insert: {code: "fast"}) }`);
      await dispatcher.runOnce();
      // The later id waits behind the missing one.
      expect(accepted(hook)).toEqual([]);
    } finally {
      await slow.commit();
    }
    for (let round = 0; accepted(hook).length < 2 && round < 200; round++) {
      await dispatcher.runOnce();
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const ids = accepted(hook).map((arrival) => Number(arrival.key));
    expect(ids).toHaveLength(2);
    expect(ascending(ids)).toBe(true);
  });

  const concurrent = database.unavailable || database.kind === 'sqlite' ? it.skip : it;
  concurrent('three dispatchers at once: every event once, order per row kept, no duplicates', {timeout: 120_000}, async () => {
    await fresh();
    const {service} = await open();
    const hook = await receiver();
    // A little latency so deliveries of different aggregates interleave.
    hook.answer = () => new Promise((resolve) => setTimeout(() => resolve(200), Math.random() * 3));
    const dispatchers: Dispatcher[] = [];
    for (let i = 0; i < 3; i++) {
      const own = knex({...fixture!.knexConfig, pool: {min: 0, max: 3}});
      cleanups.push(() => own.destroy());
      const store = new OutboxStore(own, service.settings.provider, service.model.events!.outbox);
      const dispatcher = await dispatcherFor(service, store, hook.url, {pollMs: 5, maxAggregates: 2, maxRows: 7});
      dispatchers.push(dispatcher);
      dispatcher.start();
    }
    let written = 0;
    for (let batch = 0; batch < 20; batch++) {
      const n = batch;
      await mutate(service, `mutation { orders_batch(actions: [${Array.from({length: 6}, (_, i) => `{insert: {status: "b${n}-${i}"}}`).join(', ')}]) }`);
      await mutate(service, `mutation { notes_batch(actions: [${Array.from({length: 4}, (_, i) => `{insert: {code: "c${n}-${i}"}}`).join(', ')}]) }`);
      await mutate(service, `mutation { items(insert: {name: "i${n}"}) }`);
      written += 11;
      // One row changed in every batch: twenty events of one row across the three dispatchers.
      await mutate(service, `mutation { notes(update: {code: "c0-0", body: "v${n}"}) }`);
      written += 1;
    }
    const outbox = new OutboxStore(db, service.settings.provider, service.model.events!.outbox);
    await eventually(async () => (await outbox.list({state: 'pending', limit: 1})).length === 0 && accepted(hook).length >= written, 60_000);
    for (const dispatcher of dispatchers) await dispatcher.stop();
    const all = await outbox.list({state: 'all', limit: 1000});
    expect(all).toHaveLength(written);
    const ok = accepted(hook);
    expect(new Set(ok.map((arrival) => arrival.key))).toEqual(new Set(all.map((event) => String(event.id))));
    expect(duplicates(ok)).toEqual([]);
    expect(firstArrivalsByAggregate(ok).size).toBe(3);
    const byRow = firstArrivalsByRow(ok);
    expect(byRow.get(`/gql/${schema}/notes ${JSON.stringify({code: 'c0-0'})}`)).toHaveLength(21);
    for (const ids of byRow.values()) expect(ascending(ids)).toBe(true);
  });
});
