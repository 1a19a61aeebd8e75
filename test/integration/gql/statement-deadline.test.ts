import {request} from 'node:http';
import knex, {type Knex} from 'knex';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {ANONYMOUS} from '../../../source/gql/auth/index.js';
import {openGqlService} from '../../../source/gql/service.js';
import type {GqlService} from '../../../source/gql/types.js';
import {startGraphqlServer, type GraphqlServer} from '../../../servers/graphql/index.js';
import {gqlDatabases, settingsFor, snakeCase, type GqlFixture} from '../../helpers/gql-databases.js';

// Every statement has a deadline (`:root { statement-timeout }`) and a cancel (a client that goes
// away): on the servers, where a statement holds a pooled connection (issue 27 item 3); SQLite's
// reader processes in sqlite-readers.test.ts.
const databases = await gqlDatabases();
const servers = databases.filter((database) => database.kind !== 'sqlite');
const sqlite = databases.find((database) => database.kind === 'sqlite')!;

// Room for the slow query below: the cost bound weighs limits, not filters.
const ROOM = 'max-query-cost: 9000000000000000';

/**
 * Slow on Chinook and small to answer: every track's playlists' tracks' playlists' tracks (some
 * 10^11 rows), the last ones tested against a filter that keeps none — hours of database work
 * for a small answer, so only the deadline or a cancel ends it.
 */
function slowQueries(n: (name: string) => string) {
  const none = `filter: {${n('Track')}: {${n('Name')}: {_eq: "no such track"}}}`;
  const inner = `${n('PlaylistTrack')}(limit: -1, ${none}) { ${n('TrackId')} }`;
  const endless = `{ ${n('Track')}(limit: -1) { data { ${n('PlaylistTrack')}(limit: -1) { ${n('Playlist')} { ${n('PlaylistTrack')}(limit: -1) { ${n('Track')} { ${n('PlaylistTrack')}(limit: -1) { ${n('Playlist')} { ${inner} } } } } } } } } }`;
  return {endless, small: `{ ${n('Invoice')}(limit: 1) { total } }`};
}

/** Polls until `ready` says so; the test's own timeout is the only bound (no timed assertion). */
async function until(ready: () => Promise<boolean>): Promise<void> {
  while (!(await ready())) await new Promise((resolve) => setTimeout(resolve, 100));
}

type Errors = Array<{message: string; extensions?: Record<string, unknown>}>;

describe.each(servers)('$kind', (database) => {
  const n = (name: string) => (database.kind === 'postgres' ? snakeCase(name) : name);
  const queries = slowQueries(n);
  let fixture: GqlFixture;
  let monitor: Knex;

  beforeAll(async () => {
    if (database.unavailable !== null) return;
    fixture = await database.createChinook();
    monitor = knex({...fixture.knexConfig, pool: {min: 0, max: 1}});
  }, 180_000);

  afterAll(async () => {
    await monitor?.destroy();
    await fixture?.drop();
  });

  /** Statements running in the fixture's database now, the monitor's own left out. */
  const running = async (): Promise<number> => {
    if (database.kind === 'postgres') {
      const result = await monitor.raw<{rows: Array<{n: number}>}>(
        `select count(*)::int as n from pg_stat_activity where datname = ? and state = 'active' and pid <> pg_backend_pid()`,
        [fixture.database],
      );
      return result.rows[0]!.n;
    }
    const [rows] = await monitor.raw<[Array<{n: number}>]>(
      `select count(*) as n from information_schema.PROCESSLIST where DB = ? and COMMAND = 'Query' and ID <> connection_id()`,
      [fixture.database],
    );
    return Number(rows[0]!.n);
  };

  it.skipIf(database.unavailable !== null)(
    'cuts a statement at statement-timeout: one query_timeout error naming the setting, and the next query answers',
    async () => {
      const service = await openGqlService(settingsFor(fixture, [`:root { ${ROOM}; statement-timeout: 1 }`]), {poolMax: 2});
      try {
        expect(service.model.statementTimeoutSeconds).toBe(1);
        const answer = await service.execute({query: queries.endless, user: ANONYMOUS});
        const errors = answer.errors as Errors;
        expect(errors, JSON.stringify(answer)).toHaveLength(1);
        expect(errors[0]!.message).toMatch(/^the query ran longer than statement-timeout \(1 s\) and was cancelled; .*:root \{ statement-timeout: … \}/);
        expect(errors[0]!.extensions).toEqual({code: 'query_timeout', setting: 'statement-timeout', limit: 1});
        expect(JSON.stringify(answer)).not.toMatch(/\bat .*\.(ts|js):\d+/);
        await until(async () => (await running()) === 0);
        const small = await service.execute({query: queries.small, user: ANONYMOUS});
        expect(small).toEqual({data: {[n('Invoice')]: {total: 412}}});
        // Over HTTP: a 200 with the one error, never a 500.
        const server = await startGraphqlServer({service, port: 0, playground: {js: '', css: ''}, warn: () => undefined});
        try {
          const response = await fetch(`${server.url}/graphql`, {method: 'POST', headers: {'content-type': 'application/json'}, body: JSON.stringify({query: queries.endless})});
          expect(response.status).toBe(200);
          const body = (await response.json()) as {errors?: Errors};
          expect(body.errors?.map((error) => error.extensions?.code)).toEqual(['query_timeout']);
        } finally {
          await server.close();
        }
      } finally {
        await service.close();
      }
    },
    60_000,
  );

  it.skipIf(database.unavailable !== null)(
    'a write waits no longer than the deadline: an update held behind a row lock is cut and leaves the row as it was',
    async () => {
      const service = await openGqlService(settingsFor(fixture, [':root { statement-timeout: 1 }']), {poolMax: 2});
      // A session of its own holds the lock (the monitor stays free for the other tests).
      const locker = knex({...fixture.knexConfig, pool: {min: 0, max: 1}});
      const holder = await locker.transaction();
      try {
        // Another session holds genre 1's row: the update waits on its lock until the deadline.
        await holder(n('Genre'))
          .where(n('GenreId'), 1)
          .update({[n('Name')]: 'Rock'});
        const answer = await service.execute({query: `mutation { ${n('Genre')}(update: {${n('GenreId')}: 1, ${n('Name')}: "Held"}) }`, user: ANONYMOUS});
        expect(
          ((answer.errors ?? []) as Errors).map((error) => error.extensions?.code),
          JSON.stringify(answer),
        ).toEqual(['query_timeout']);
        await holder.rollback();
        const genre = await service.execute({query: `{ ${n('Genre')}(filter: {${n('GenreId')}: {_eq: 1}}) { data { ${n('Name')} } } }`, user: ANONYMOUS});
        expect(genre).toEqual({data: {[n('Genre')]: {data: [{[n('Name')]: 'Rock'}]}}});
      } finally {
        if (!holder.isCompleted()) await holder.rollback();
        await locker.destroy();
        await service.close();
      }
    },
    60_000,
  );
  it.skipIf(database.unavailable !== null)(
    'twelve requests abandoned by their clients leave nothing running and the pool free: a small query answers',
    async () => {
      // The deadline far away: only the clients' going away can end these statements.
      const service: GqlService = await openGqlService(settingsFor(fixture, [`:root { ${ROOM}; statement-timeout: 3600 }`]));
      const server: GraphqlServer = await startGraphqlServer({service, port: 0, playground: {js: '', css: ''}, warn: () => undefined});
      try {
        const body = JSON.stringify({query: queries.endless});
        const clients = Array.from({length: 12}, () => {
          const client = request(`${server.url}/graphql`, {method: 'POST', headers: {'content-type': 'application/json', 'content-length': Buffer.byteLength(body)}});
          client.on('error', () => undefined);
          client.end(body);
          return client;
        });
        // All ten pooled connections busy with the heavy statement (the other two wait for one).
        await until(async () => (await running()) >= 10);
        for (const client of clients) client.destroy();
        await until(async () => (await running()) === 0);
        const answer = await fetch(`${server.url}/graphql`, {method: 'POST', headers: {'content-type': 'application/json'}, body: JSON.stringify({query: queries.small})});
        expect(answer.status).toBe(200);
        expect(await answer.json()).toEqual({data: {[n('Invoice')]: {total: 412}}});
        // The two that waited for a connection never ran theirs: still nothing running.
        expect(await running()).toBe(0);
      } finally {
        await server.close();
        await service.close();
      }
    },
    120_000,
  );
});

describe('the setting', () => {
  let fixture: GqlFixture;
  beforeAll(async () => {
    fixture = await sqlite.createChinook();
  });
  afterAll(async () => {
    await fixture?.drop();
  });

  it('is 30 s unless set, and is read on SQLite too (cut there in its reader processes: sqlite-readers.test.ts)', async () => {
    const plain = await openGqlService(settingsFor(fixture));
    const set = await openGqlService(settingsFor(fixture, [':root { statement-timeout: 5 }']));
    try {
      expect(plain.model.statementTimeoutSeconds).toBe(30);
      expect(set.model.statementTimeoutSeconds).toBe(5);
      expect(await set.execute({query: '{ Invoice(limit: 1) { total } }', user: ANONYMOUS})).toEqual({data: {Invoice: {total: 412}}});
    } finally {
      await plain.close();
      await set.close();
    }
  });

  it.each([
    ['-5', 'must be a positive number'],
    ['0', 'must be a positive number'],
    ['soon', 'must be a whole number'],
    ['1.5', 'must be a whole number'],
  ])('refuses statement-timeout: %s at load, in one line naming the setting', async (value, reason) => {
    const opened = openGqlService(settingsFor(fixture, [`:root { statement-timeout: ${value} }`]));
    await expect(opened).rejects.toMatchObject({code: 'config_invalid'});
    const message = ((await opened.catch((error: unknown) => error)) as Error).message;
    expect(message).toContain('1 problem(s)');
    expect(message).toContain(`:root: statement-timeout: "${value}": ${reason}`);
  });
});
