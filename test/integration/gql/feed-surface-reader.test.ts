// The loop: the workbench reader subscribes to a GraphQL server's table feed on 127.0.0.1 (the
// outbound policy lets a user's own feeds on private addresses through), sees the rows as
// articles, gets a 304 while the table is unchanged, and the new row after a refresh. Real
// GraphQL server, real reader service (fetcher, parser, SQLite store), on every database.
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import knex, {type Knex} from 'knex';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {startGraphqlServer, type GraphqlServer} from '../../../servers/graphql/index.js';
import {openGqlService} from '../../../source/gql/service.js';
import {gqlDatabases, settingsFor, type GqlFixture} from '../../helpers/gql-databases.js';
import {readerHarness, type Harness} from '../reader/reader-harness.js';

const databases = await gqlDatabases();

function schemaOf(fixture: GqlFixture): string {
  if (fixture.provider === 'sqlite') return 'main';
  if (fixture.provider === 'postgres') return 'public';
  return fixture.database;
}

describe.each(databases)('the reader subscribes to a table feed on $kind', (database) => {
  const maybe = database.unavailable ? it.skip : it;
  let fixture: GqlFixture | undefined;
  let db: Knex;
  let server: GraphqlServer;
  let reader: Harness;
  let dir: string;

  beforeAll(async () => {
    if (database.unavailable) {
      console.warn(`skipping the feed-surface reader tests on ${database.kind}: ${database.unavailable}`);
      return;
    }
    dir = mkdtempSync(join(tmpdir(), 'wb-gql-feed-reader-'));
    fixture = await database.createEmpty();
    db = knex(fixture.knexConfig);
    await db.schema.createTable('news', (t) => {
      t.increments('id').primary();
      t.string('headline', 200);
      t.text('story');
      t.datetime('posted_at', {useTz: false});
      t.datetime('deleted_at', {useTz: false});
    });
    await db('news').insert([
      {headline: 'First story', story: '<p>One</p>', posted_at: '2026-02-01 08:00:00'},
      {headline: 'Second story', story: '<p>Two</p>', posted_at: '2026-02-02 08:00:00'},
      {headline: 'Withdrawn', story: '<p>Gone</p>', posted_at: '2026-02-03 08:00:00', deleted_at: '2026-02-03 09:00:00'},
    ]);
    const schema = schemaOf(fixture);
    const service = await openGqlService(
      settingsFor(fixture, [`${schema}.news { feed-timestamp: posted_at; feed-title: headline; feed-body: story; feed-link: https://news.example/{id}; soft-delete: deleted_at }`]),
      {poolMax: 3},
    );
    server = await startGraphqlServer({service, port: 0, playground: {js: '', css: ''}, warn: () => {}});
    reader = await readerHarness(join(dir, 'reader.sqlite'));
  });
  afterAll(async () => {
    await reader?.close();
    await server?.close();
    await db?.destroy();
    await fixture?.drop();
    if (dir) rmSync(dir, {recursive: true, force: true});
  });

  maybe('subscribes, sees the rows as articles, nothing new while unchanged, the new row after a refresh', async () => {
    const subscribed = await reader.call('POST', '/feeds', {url: `${server.url}/feeds/news`});
    expect(subscribed.status, subscribed.text).toBe(201);
    const feedId = subscribed.body.id as number;
    expect(subscribed.body.title).toBe('news');

    const articles = async () => (await reader.call('GET', `/articles?feed_id=${feedId}`)).body.articles as Array<{title: string; link: string; published: string | null}>;
    expect((await articles()).map((article) => [article.title, article.link])).toEqual([
      ['Second story', 'https://news.example/2'],
      ['First story', 'https://news.example/1'],
    ]);

    // Polled again with the validators the server gave: nothing new.
    expect((await reader.call('POST', `/feeds/${feedId}/refresh`)).body).toEqual({newArticles: 0});

    await db('news').insert({headline: 'Breaking', story: '<p>Three</p>', posted_at: '2026-02-04 08:00:00'});
    expect((await reader.call('POST', `/feeds/${feedId}/refresh`)).body).toEqual({newArticles: 1});
    expect((await articles()).map((article) => article.title)).toEqual(['Breaking', 'Second story', 'First story']);
  });
});
