import {request, type ClientRequest} from 'node:http';
import knex from 'knex';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {ANONYMOUS} from '../../../source/gql/auth/index.js';
import {openGqlService} from '../../../source/gql/service.js';
import type {UserContext} from '../../../source/gql/types.js';
import {HEALTH_PATH, startGraphqlServer, type GraphqlServer} from '../../../servers/graphql/index.js';
import {gqlDatabases, settingsFor, type GqlFixture} from '../../helpers/gql-databases.js';

// No query blocks the server on SQLite (issue 27 items 2 and 3): reads run in reader processes,
// cut at statement-timeout or when their client hangs up, while health and other requests answer.
const sqlite = (await gqlDatabases()).find((database) => database.kind === 'sqlite')!;

// Room for the slow query below: the cost bound weighs limits, not filters.
const ROOM = 'max-query-cost: 9000000000000000';

/** Hours of SQLite work for an empty answer (the filter keeps no track): only a deadline or a hang-up ends it. */
const none = 'filter: {Track: {Name: {_eq: "no such track"}}}';
const ENDLESS = `{ Track(limit: -1) { data { PlaylistTrack(limit: -1) { Playlist { PlaylistTrack(limit: -1) { Track { PlaylistTrack(limit: -1) { Playlist { PlaylistTrack(limit: -1, ${none}) { TrackId } } } } } } } } } }`;
const SMALL = '{ Invoice(limit: 1) { total } }';
const SMALL_ANSWER = {data: {Invoice: {total: 412}}};

/** Polls until `ready` says so; the test's own timeout is the only bound (no timed assertion). */
async function until(ready: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await ready())) await new Promise((resolve) => setTimeout(resolve, 20));
}

type Errors = Array<{message: string; extensions?: Record<string, unknown>}>;

/** POSTs a query with a client the test can hang up; `answered` settles with the body or the hang-up. */
function postQuery(server: GraphqlServer, query: string): {client: ClientRequest; answered: Promise<string>} {
  const body = JSON.stringify({query});
  const client = request(`${server.url}/graphql`, {method: 'POST', headers: {'content-type': 'application/json', 'content-length': Buffer.byteLength(body)}});
  const answered = new Promise<string>((resolve, reject) => {
    client.on('response', (response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString()));
      response.on('end', () => resolve(text));
      response.on('error', reject);
    });
    client.on('error', reject);
  });
  client.end(body);
  return {client, answered};
}

describe('SQLite reads off the server thread', () => {
  let fixture: GqlFixture;
  beforeAll(async () => {
    fixture = await sqlite.createChinook();
  });
  afterAll(async () => {
    await fixture?.drop();
  });

  it('while a heavy query runs, /_workbench/health and a small query answer before it ends; a hang-up then ends its reader', async () => {
    const service = await openGqlService(settingsFor(fixture, [`:root { ${ROOM}; statement-timeout: 3600 }`]));
    const server = await startGraphqlServer({service, port: 0, playground: {js: '', css: ''}, warn: () => undefined});
    try {
      const events: string[] = [];
      const heavy = postQuery(server, ENDLESS);
      const heavyEnded = heavy.answered.then(
        () => events.push('heavy answered'),
        () => events.push('heavy hung up'),
      );
      // The heavy statement is running in a reader process.
      await until(() => service.sqliteReaders!.state().running === 1);
      const health = await fetch(`${server.url}${HEALTH_PATH}`);
      events.push(`health ${health.status}`);
      expect(await health.json()).toEqual({ok: true});
      const small = await fetch(`${server.url}/graphql`, {method: 'POST', headers: {'content-type': 'application/json'}, body: JSON.stringify({query: SMALL})});
      events.push(`small ${small.status}`);
      expect(await small.json()).toEqual(SMALL_ANSWER);
      // Both answered while the heavy one still runs.
      expect(events).toEqual(['health 200', 'small 200']);
      expect(service.sqliteReaders!.state()).toMatchObject({running: 1, processes: 2});
      heavy.client.destroy();
      await heavyEnded;
      // The hang-up killed the heavy one's reader: one process left, running nothing.
      await until(() => service.sqliteReaders!.state().processes === 1);
      expect(service.sqliteReaders!.state()).toMatchObject({running: 0, waiting: 0});
      expect(events).toEqual(['health 200', 'small 200', 'heavy hung up']);
      // No answer was sent, yet the request is counted: as nginx's 499, client closed request.
      const metrics = await (await fetch(`${server.url}/metrics`)).text();
      expect(metrics).toMatch(/^http_requests_total\{route="\/graphql",method="POST",status="499"\} 1$/m);
      expect(metrics).toMatch(/^http_requests_total\{route="\/graphql",method="POST",status="200"\} 1$/m);
    } finally {
      await server.close();
      await service.close();
    }
  }, 60_000);

  it('cuts an endless query at statement-timeout: 1 with one query_timeout error, and the next query answers', async () => {
    const service = await openGqlService(settingsFor(fixture, [`:root { ${ROOM}; statement-timeout: 1 }`]), {sqliteReaders: 1});
    try {
      const answer = await service.execute({query: ENDLESS, user: ANONYMOUS});
      const errors = answer.errors as Errors;
      expect(errors, JSON.stringify(answer)).toHaveLength(1);
      expect(errors[0]!.message).toMatch(/^the query ran longer than statement-timeout \(1 s\) and was cancelled; .*:root \{ statement-timeout: … \}/);
      expect(errors[0]!.extensions).toEqual({code: 'query_timeout', setting: 'statement-timeout', limit: 1});
      expect(JSON.stringify(answer)).not.toMatch(/\bat .*\.(ts|js):\d+/);
      // Its reader was ended with the statement; a fresh one answers the next query.
      expect(service.sqliteReaders!.state()).toMatchObject({processes: 0, running: 0});
      expect(await service.execute({query: SMALL, user: ANONYMOUS})).toEqual(SMALL_ANSWER);
      // Over HTTP: a 200 with the one error, never a 500.
      const server = await startGraphqlServer({service, port: 0, playground: {js: '', css: ''}, warn: () => undefined});
      try {
        const response = await fetch(`${server.url}/graphql`, {method: 'POST', headers: {'content-type': 'application/json'}, body: JSON.stringify({query: ENDLESS})});
        expect(response.status).toBe(200);
        const body = (await response.json()) as {errors?: Errors};
        expect(body.errors?.map((error) => error.extensions?.code)).toEqual(['query_timeout']);
      } finally {
        await server.close();
      }
    } finally {
      await service.close();
    }
  }, 60_000);

  it('_rawQuery on SQLite is cut at its own timeout, and a raw write still runs (on the service connection)', async () => {
    const service = await openGqlService(settingsFor(fixture, [':root { raw-sql: true }']), {sqliteReaders: 1});
    const admin: UserContext = {claims: {}, roles: ['gql-raw-sql'], anonymous: false};
    try {
      const endless = 'with recursive c(x) as (select 1 union all select x + 1 from c) select count(*) from c where x < 0';
      const cut = await service.execute({query: `{ _rawQuery(sql: "${endless}", timeout: 1) }`, user: admin});
      expect(
        (cut.errors as Errors).map((error) => [error.extensions?.code, error.extensions?.setting]),
        JSON.stringify(cut),
      ).toEqual([['query_timeout', 'raw-sql-timeout']]);
      const write = await service.execute({query: `{ _rawQuery(sql: "update Genre set Name = ? where GenreId = 1", params: ["Raw rock"]) }`, user: admin});
      expect(write.errors).toBeUndefined();
      expect(await service.execute({query: '{ Genre(filter: {GenreId: {_eq: 1}}) { data { Name } } }', user: ANONYMOUS})).toEqual({data: {Genre: {data: [{Name: 'Raw rock'}]}}});
    } finally {
      await service.close();
    }
  }, 60_000);

  it('a client that hangs up frees the only reader of a one-reader pool: the next query answers', async () => {
    const service = await openGqlService(settingsFor(fixture, [`:root { ${ROOM}; statement-timeout: 3600 }`]), {sqliteReaders: 1});
    const server = await startGraphqlServer({service, port: 0, playground: {js: '', css: ''}, warn: () => undefined});
    try {
      const heavy = postQuery(server, ENDLESS);
      heavy.answered.catch(() => undefined);
      await until(() => service.sqliteReaders!.state().running === 1);
      // A second read waits for the one reader.
      const queued = fetch(`${server.url}/graphql`, {method: 'POST', headers: {'content-type': 'application/json'}, body: JSON.stringify({query: SMALL})});
      await until(() => service.sqliteReaders!.state().waiting === 1);
      heavy.client.destroy();
      const answer = await queued;
      expect(answer.status).toBe(200);
      expect(await answer.json()).toEqual(SMALL_ANSWER);
      expect(service.sqliteReaders!.state()).toMatchObject({size: 1, processes: 1, running: 0, waiting: 0});
    } finally {
      await server.close();
      await service.close();
    }
  }, 60_000);

  it('mutations write on the service connection and the reads after them see their writes, in one request and the next', async () => {
    const service = await openGqlService(settingsFor(fixture, ['main.Genre { filtered-update: enabled }']));
    try {
      // One request: an insert, then an updateWhere whose transaction counts and reads the row the insert wrote.
      const written = await service.execute({
        query: 'mutation { id: Genre(insert: {Name: "Reader test"}) renamed: Genre(updateWhere: {set: {Name: "Reader test, renamed"}, where: {Name: {_eq: "Reader test"}}}) }',
        user: ANONYMOUS,
      });
      expect(written.errors, JSON.stringify(written)).toBeUndefined();
      expect(written.data?.renamed).toBe(1);
      const read = await service.execute({query: `{ Genre(filter: {GenreId: {_eq: ${Number(written.data?.id)}}}) { data { Name } } }`, user: ANONYMOUS});
      expect(read).toEqual({data: {Genre: {data: [{Name: 'Reader test, renamed'}]}}});
      // The file is in WAL, which lets the readers read beside the writer.
      const db = knex({...fixture.knexConfig, pool: {min: 0, max: 1}});
      try {
        expect(await db.raw('pragma journal_mode')).toEqual([{journal_mode: 'wal'}]);
      } finally {
        await db.destroy();
      }
    } finally {
      await service.close();
    }
  }, 60_000);

  it('on :memory: (no other connection can open it) reads stay on the service thread', async () => {
    const service = await openGqlService({...settingsFor(fixture), connectionString: 'Data Source=:memory:'});
    try {
      expect(service.sqliteReaders).toBeUndefined();
    } finally {
      await service.close();
    }
  });
});
