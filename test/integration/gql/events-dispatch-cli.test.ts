// `workbench gql events dispatch|list|retry` as built (dist/source/cli.js): a dispatcher SIGKILLed
// mid-batch and another started after it deliver every event at least once, in order per row,
// and leave the outbox all dispatched (PostgreSQL and SQLite); and the user's mistakes — a webhook
// or NATS address that is not one, no sink at all, a bad --limit, retry of an id that is not there
// or was delivered — each a one-line error with exit 1.
import {writeFileSync} from 'node:fs';
import {join} from 'node:path';
import knex, {type Knex} from 'knex';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {outboxDdl} from '../../../source/gql/events/outbox-contract.js';
import {OutboxStore} from '../../../source/gql/events/outbox-store.js';
import {openGqlService} from '../../../source/gql/service.js';
import type {UserContext} from '../../../source/gql/types.js';
import {eventually, expectOneLineFailure, makeSandbox, runCli, spawnCli, type Sandbox} from '../../helpers/cli.js';
import {accepted, ascending, firstArrivalsByAggregate, firstArrivalsByRow, startReceiver} from '../../helpers/event-receiver.js';
import {gqlDatabases, settingsFor, type GqlFixture} from '../../helpers/gql-databases.js';

const databases = await gqlDatabases();
const user: UserContext = {claims: {sub: 'ann', tenant_id: 'a'}, roles: [], auditKey: 'ann', anonymous: false};
const PROVIDER_NAME = {sqlite: 'sqlite', postgres: 'postgres', mysql: 'mysql'} as const;

function schemaOf(fixture: GqlFixture): string {
  if (fixture.provider === 'sqlite') return 'main';
  if (fixture.provider === 'postgres') return 'public';
  return fixture.database;
}

interface Prepared {
  fixture: GqlFixture;
  db: Knex;
  schema: string;
  rules: string[];
}

async function prepare(create: () => Promise<GqlFixture>): Promise<Prepared> {
  const fixture = await create();
  const db = knex(fixture.knexConfig);
  const schema = schemaOf(fixture);
  for (const name of ['orders', 'items']) {
    await db.schema.createTable(name, (t) => {
      t.increments('id').primary();
      t.string('tenant_id', 20).notNullable();
      t.string('label', 40);
    });
  }
  await db.schema.createTable('notes', (t) => {
    t.string('code', 40).primary();
  });
  for (const statement of outboxDdl(fixture.provider, schema, 'wb_outbox')) await db.raw(statement);
  const rules = [
    `:root { outbox-table: ${schema}.wb_outbox; webhook-secret: s1; }`,
    `${schema}.orders { emit-events: insert, update, delete; tenant-filter: tenant_id; }`,
    `${schema}.items { emit-events: insert; tenant-filter: tenant_id; }`,
    `${schema}.notes { emit-events: insert; }`,
  ];
  return {fixture, db, schema, rules};
}

function writeSettings(sandbox: Sandbox, prepared: Prepared, cdc: Record<string, string>, name = 'appsettings.json'): string {
  const file = join(sandbox.dir, name);
  writeFileSync(
    file,
    JSON.stringify({
      ConnectionStrings: {gqlservice: prepared.fixture.connectionString},
      GqlService: {Provider: PROVIDER_NAME[prepared.fixture.provider], DisableAuth: true, Metadata: prepared.rules},
      Cdc: cdc,
    }),
  );
  return file;
}

describe.each(databases.filter((database) => database.kind !== 'mysql'))('a dispatcher SIGKILLed mid-batch ($kind)', (database) => {
  const maybe = database.unavailable ? it.skip : it;
  let prepared: Prepared | undefined;
  let sandbox: Sandbox;

  beforeAll(async () => {
    if (database.unavailable) return;
    sandbox = makeSandbox('wb-dispatch-kill-');
    prepared = await prepare(() => database.createEmpty());
  });
  afterAll(async () => {
    await prepared?.db.destroy();
    await prepared?.fixture.drop();
    await sandbox?.cleanup();
  });

  maybe('every event arrives at least once, first arrivals in id order per row, the outbox ends all dispatched', {timeout: 180_000}, async () => {
    const {fixture, db, rules} = prepared!;
    const service = await openGqlService(settingsFor(fixture, rules), {poolMax: 2});
    try {
      let changed: unknown;
      for (let i = 0; i < 15; i++) {
        const inserted = await service.execute({query: `mutation { orders(insert: {label: "o${i}"}) }`, user});
        changed ??= inserted.data?.orders;
        await service.execute({query: `mutation { items(insert: {label: "i${i}"}) }`, user});
        await service.execute({query: `mutation { notes(insert: {code: "n${i}"}) }`, user});
      }
      // One row changed again and again: its events must arrive in order.
      for (let i = 0; i < 10; i++) {
        const result = await service.execute({query: `mutation { orders(update: {id: ${JSON.stringify(changed)}, label: "v${i}"}) }`, user});
        expect(result.errors).toBeUndefined();
      }
    } finally {
      await service.close();
    }
    const store = new OutboxStore(db, fixture.provider, {schema: prepared!.schema, name: 'wb_outbox', key: `${prepared!.schema}.wb_outbox`});
    const ids = (await store.list({state: 'all', limit: 1000})).map((event) => String(event.id));
    expect(ids).toHaveLength(55);

    const hook = await startReceiver();
    // A slow receiver: deliveries are in flight when the kill comes.
    hook.answer = () => new Promise((resolve) => setTimeout(() => resolve(200), 40));
    try {
      const settings = writeSettings(sandbox, prepared!, {WebhookUrl: hook.url});
      const args = ['gql', 'events', 'dispatch', '--settings', settings, '--lease-seconds', '1', '--base-delay-ms', '100'];
      const first = spawnCli(args, {env: sandbox.env});
      let firstErr = '';
      first.stderr?.setEncoding('utf8').on('data', (chunk: string) => (firstErr += chunk));
      await eventually(() => hook.arrivals.length >= 6, 60_000, 20);
      const firstExit = new Promise((resolve) => first.once('exit', resolve));
      first.kill('SIGKILL');
      await firstExit;
      const beforeSecond = hook.arrivals.length;
      expect(beforeSecond).toBeLessThan(55);
      expect(await store.list({state: 'pending', limit: 1000})).not.toHaveLength(0);

      const second = spawnCli(args, {env: sandbox.env});
      let secondErr = '';
      second.stderr?.setEncoding('utf8').on('data', (chunk: string) => (secondErr += chunk));
      try {
        await eventually(async () => (await store.list({state: 'pending', limit: 1})).length === 0, 120_000, 200);
      } finally {
        const secondExit = new Promise((resolve) => second.once('exit', resolve));
        second.kill('SIGTERM');
        await secondExit;
      }
      expect(firstErr).toMatch(/dispatching/);
      expect(secondErr).toMatch(/dispatching/);

      const ok = accepted(hook);
      expect(new Set(ok.map((arrival) => arrival.key))).toEqual(new Set(ids));
      expect(firstArrivalsByAggregate(ok).size).toBe(3);
      const byRow = firstArrivalsByRow(ok);
      expect(byRow.size).toBe(45);
      expect(Math.max(...[...byRow.values()].map((order) => order.length))).toBe(11);
      for (const order of byRow.values()) expect(ascending(order)).toBe(true);
      const all = await store.list({state: 'all', limit: 1000});
      expect(all.every((event) => event.dispatchedAt !== null && !event.dead)).toBe(true);
    } finally {
      await hook.close();
    }
  });
});

describe('gql events: bad input is one line, exit 1', () => {
  const sqlite = databases.find((database) => database.kind === 'sqlite')!;
  let prepared: Prepared;
  let sandbox: Sandbox;

  beforeAll(async () => {
    sandbox = makeSandbox('wb-dispatch-bad-');
    prepared = await prepare(() => sqlite.createEmpty());
    await prepared.db('wb_outbox').insert({aggregate: 'main.notes', aggregate_id: '{"code":"x"}', op: 'insert', payload: '{}', dispatched_at: new Date().toISOString()});
  });
  afterAll(async () => {
    await prepared?.db.destroy();
    await prepared?.fixture.drop();
    await sandbox?.cleanup();
  });

  const cases: Array<[string, Record<string, string>, string[], RegExp]> = [
    ['a webhook URL that is not one', {WebhookUrl: 'not a url'}, ['dispatch', '--once'], /Cdc:WebhookUrl "not a url" is not a URL/],
    ['an ftp webhook', {WebhookUrl: 'ftp://127.0.0.1/hook'}, ['dispatch', '--once'], /Cdc:WebhookUrl must be http or https, not ftp:/],
    ['a NATS URL that is garbage', {NatsUrl: '::garbage::'}, ['dispatch', '--once'], /Cdc:NatsUrl "::garbage::" is not a URL/],
    ['a NATS URL of another scheme', {NatsUrl: 'http://127.0.0.1:4222'}, ['dispatch', '--once'], /Cdc:NatsUrl must start with nats:\/\//],
    ['no sink at all', {}, ['dispatch', '--once'], /nowhere to deliver: set Cdc:WebhookUrl or Cdc:NatsUrl/],
    ['list --limit x', {}, ['list', '--limit', 'x'], /--limit must be a whole number of at least 1, not "x"/],
    ['retry of an id not in the outbox', {}, ['retry', '999'], /no event 999 in the outbox/],
    ['retry of a delivered event', {}, ['retry', '1'], /event 1 was delivered at .*use replay --from 1/],
    ['retry of something not an id', {}, ['retry', 'abc'], /the event id must be a whole number/],
  ];
  it.each(cases)('%s', async (_what, cdc, command, pattern) => {
    const settings = writeSettings(sandbox, prepared, cdc, `settings-${Math.random().toString(36).slice(2)}.json`);
    const result = await runCli(['gql', 'events', ...command, '--settings', settings], {env: sandbox.env, timeoutMs: 30_000});
    expectOneLineFailure(result, pattern, command.join(' '));
  });
});
