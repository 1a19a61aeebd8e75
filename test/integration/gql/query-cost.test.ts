import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {ANONYMOUS} from '../../../source/gql/auth/index.js';
import {openGqlService} from '../../../source/gql/service.js';
import type {GqlService} from '../../../source/gql/types.js';
import {startGraphqlServer, type GraphqlServer} from '../../../servers/graphql/index.js';
import {gqlDatabases, settingsFor, type GqlFixture} from '../../helpers/gql-databases.js';

// The cost bound is the model's, before any SQL: one database (SQLite, the embedded default) shows it.
let fixture: GqlFixture;
let service: GqlService;
let strict: GqlService;
let server: GraphqlServer;

beforeAll(async () => {
  const sqlite = (await gqlDatabases()).find((database) => database.kind === 'sqlite')!;
  fixture = await sqlite.createChinook();
  service = await openGqlService(settingsFor(fixture));
  strict = await openGqlService(settingsFor(fixture, [':root { max-query-cost: 1000; max-query-depth: 4 }']));
  server = await startGraphqlServer({service, port: 0, playground: {js: '', css: ''}, warn: () => undefined});
});

afterAll(async () => {
  await server?.close();
  await service?.close();
  await strict?.close();
  await fixture?.drop();
});

type Errors = Array<{message: string; extensions?: Record<string, unknown>}>;
const errorsOf = async (target: GqlService, query: string, variables?: Record<string, unknown>) =>
  (await target.execute({query, variables, user: ANONYMOUS})).errors as Errors | undefined;

// The three: each froze the embedded server for seconds to minutes.
const DEEP = '{ Genre(limit: -1) { data { Track(limit: -1) { Genre { Track(limit: -1) { Genre { Track(limit: -1) { Genre { Name } } } } } } } } }';
const SHALLOWER = '{ Genre(limit: -1) { data { Track(limit: -1) { Genre { Track(limit: -1) { Genre { Name } } } } } } }';
const ALIASES = `{ ${Array.from({length: 300}, (_, index) => `t${index}: Track(limit: -1) { data { Name } }`).join(' ')} }`;

describe('the cost of a query, before any SQL runs', () => {
  it('refuses the queries that froze the server, naming the setting, the estimate and the field that drove it', async () => {
    for (const query of [DEEP, SHALLOWER, ALIASES]) {
      const errors = await errorsOf(service, query);
      expect(errors, query.slice(0, 60)).toHaveLength(1);
      expect(errors![0]!.message).toMatch(/^the query may read [\d,]+ rows, over max-query-cost \(1,000,000\); most under \S+ \([\d,]+\)/);
      expect(errors![0]!.extensions).toMatchObject({code: 'query_too_costly', setting: 'max-query-cost', limit: 1_000_000});
    }
    const deep = (await errorsOf(service, DEEP))![0]!;
    expect(deep.extensions!.field).toBe('Genre.data.Track.Genre.Track.Genre.Track');
    expect(deep.extensions!.estimate as number).toBeGreaterThan(1e10);
    // 300 × the 3,503 tracks: every alias counts.
    expect((await errorsOf(service, ALIASES))![0]!.extensions!.estimate).toBe(300 * 3503);
  });

  it("answers what the limits and the tables keep small: defaults, explicit limits, a variable limit, every genre's tracks", async () => {
    const nested = await service.execute({query: '{ Artist(limit: 2) { data { Name Album { Title Track(limit: 3) { Name } } } } }', user: ANONYMOUS});
    expect(nested.errors, JSON.stringify(nested.errors)).toBeUndefined();
    expect((nested.data as {Artist: {data: unknown[]}}).Artist.data).toHaveLength(2);
    // Each track has one genre: all genres' tracks are the 3,503 tracks, not 25 × 10,000.
    expect(await errorsOf(service, '{ Genre(limit: -1) { data { Name Track(limit: -1) { Name } } } }')).toBeUndefined();
    // The benchmark's deep shape, with the default limits.
    expect(
      await errorsOf(service, '{ Artist(limit: 10) { data { Name Album { Title Track { Name Genre { Name } MediaType { Name } PlaylistTrack { Playlist { Name } } } } } } }'),
    ).toBeUndefined();
    // Under a single link the tracks repeat: every track's genre's tracks is 3,503 × 3,503.
    const query = 'query($n: Int) { Track(limit: -1) { data { Genre { Track(limit: $n) { Name } } } } }';
    expect(await errorsOf(service, query, {n: 10})).toBeUndefined();
    expect((await errorsOf(service, query, {n: -1}))![0]!.extensions).toMatchObject({code: 'query_too_costly', estimate: 3503 + 3503 * 3503, field: 'Track.data.Genre.Track'});
    // The variable's default counts when none is sent.
    expect((await errorsOf(service, 'query($n: Int = -1) { Track(limit: -1) { data { Genre { Track(limit: $n) { Name } } } } }'))![0]!.extensions!.code).toBe('query_too_costly');
  });

  it('a verdict kept for a document sent without variables holds per operation, and variables are weighed anew', async () => {
    const byDefault = 'query($n: Int = -1) { Track(limit: -1) { data { Genre { Track(limit: $n) { Name } } } } }';
    for (let round = 0; round < 2; round += 1) {
      expect((await errorsOf(service, byDefault))![0]!.extensions!.code).toBe('query_too_costly');
      expect(await errorsOf(service, byDefault, {n: 10})).toBeUndefined();
    }
    const both = `query Light { Artist(limit: 2) { data { Name } } } query Heavy ${DEEP}`;
    const run = (operationName: string) => service.execute({query: both, operationName, user: ANONYMOUS});
    for (let round = 0; round < 2; round += 1) {
      expect((await run('Light')).errors).toBeUndefined();
      expect(((await run('Heavy')).errors as Errors)[0]!.extensions!.code).toBe('query_too_costly');
    }
  });

  it('fragments are weighed as what they expand to, and spreads that multiply are weighed once', async () => {
    const viaFragment = 'fragment T on Genre { Track(limit: -1) { Name } } { Track(limit: -1) { data { Genre { ...T } } } }';
    expect((await errorsOf(service, viaFragment))![0]!.extensions).toMatchObject({estimate: 3503 + 3503 * 3503, field: 'Track.data.Genre.Track'});
    // Each level doubles what it expands to: 2^30 Name fields, but no collection, so nothing to read more than one page.
    const levels = Array.from({length: 30}, (_, index) => `fragment F${index} on Track { ...F${index + 1} ...F${index + 1} }`).join(' ');
    const multiplying = `${levels} fragment F30 on Track { Name } { Track(limit: 5) { data { ...F0 } } }`;
    const answer = await service.execute({query: multiplying, user: ANONYMOUS});
    expect(answer.errors).toBeUndefined();
    expect((answer.data as {Track: {data: unknown[]}}).Track.data).toHaveLength(5);
  });

  it('a model setting lowers the bound and the depth; depth 200 is refused by it', async () => {
    const errors = await errorsOf(strict, '{ Track(limit: 20) { data { Name InvoiceLine(limit: 100) { UnitPrice } } } }');
    expect(errors![0]!.message).toMatch(/over max-query-cost \(1,000\); most under Track\.data\.InvoiceLine \(2,000\)/);
    const fine = await errorsOf(strict, '{ Track(limit: 20) { data { Name } } }');
    expect(fine, JSON.stringify(fine)).toBeUndefined();
    const tooDeep = await errorsOf(strict, '{ Track(limit: 1) { data { Genre { Track(limit: 1) { Genre { Name } } } } } }');
    expect(tooDeep![0]!).toMatchObject({
      message: expect.stringMatching(/nests deeper than max-query-depth \(4\)/),
      extensions: {code: 'query_too_costly', setting: 'max-query-depth'},
    });
    const depth200 = `{ Track(limit: 1) { data { ${'Genre { Track(limit: 1) { '.repeat(100)}Name${' } }'.repeat(100)} } } }`;
    expect((await errorsOf(service, depth200))![0]!.extensions).toMatchObject({setting: 'max-query-depth', limit: 15});
  });

  it('over HTTP the refusal is a GraphQL error too, and the server answers the next query', async () => {
    const response = await fetch(`${server.url}/graphql`, {
      method: 'POST',
      headers: {'content-type': 'application/json', accept: 'application/json'},
      body: JSON.stringify({query: DEEP}),
    });
    const body = (await response.json()) as {errors: Errors};
    expect(body.errors[0]!.extensions).toMatchObject({code: 'query_too_costly', setting: 'max-query-cost'});
    const small = await fetch(`${server.url}/graphql`, {
      method: 'POST',
      headers: {'content-type': 'application/json', accept: 'application/json'},
      body: JSON.stringify({query: '{ Genre(limit: 1) { data { Name } } }'}),
    });
    expect(((await small.json()) as {data: unknown}).data).toEqual({Genre: {data: [{Name: 'Rock'}]}});
  });
});
