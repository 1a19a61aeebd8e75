// The GraphQL service's syndicated feed surface (spec 3) on SQLite, PostgreSQL and MariaDB, through
// the real server: `GET /feeds/<table>` as RSS 2.0 and Atom 1.0, negotiated as the feed gateway
// does it, rows read as the request's user may read them (tenant filter, soft delete), conditional
// GETs, item ids from the primary key (composite too), templates filled, bodies sanitised — and
// read back by the project's parser and by Debian's python3-feedparser.
import knex, {type Knex} from 'knex';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {startOidcIssuer, type OidcIssuer} from '../../../fixtures/oidc-issuer/issuer.js';
import {startGraphqlServer, type GraphqlServer} from '../../../servers/graphql/index.js';
import {parseFeed} from '../../../source/feeds/parser/index.js';
import {openGqlService} from '../../../source/gql/service.js';
import {feedparser} from '../../helpers/feedparser.js';
import {requirePackage} from '../../helpers/system-package.js';
import {gqlDatabases, settingsFor, type GqlFixture} from '../../helpers/gql-databases.js';
import {wellFormedXml} from '../../helpers/well-formed-xml.js';

const hasFeedparser = !requirePackage('python3-feedparser', {for: 'the feed surface read back by feedparser'});
const databases = await gqlDatabases();
const AUDIENCE = 'workbench-api';
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0';

function schemaOf(fixture: GqlFixture): string {
  if (fixture.provider === 'sqlite') return 'main';
  if (fixture.provider === 'postgres') return 'public';
  return fixture.database;
}

// id, tenant, title, slug, day of January 2026 (10:00 UTC), deleted.
const POSTS = [
  [1, 't1', 'Oldest of t1', 'first', 1, false],
  [2, 't1', 'Second & <b>bold</b>', 'hello world/ä?x=1&y', 3, false],
  [3, 't1', 'Deleted one', 'gone', 5, true],
  [4, 't1', 'Newest of t1', 'newest', 4, false],
  [5, 't2', 'Only of t2', 'other', 2, false],
] as const;

const at = (day: number, hour = 10) => `2026-01-${String(day).padStart(2, '0')} ${String(hour).padStart(2, '0')}:00:00`;
const millis = (day: number, hour = 10) => Date.UTC(2026, 0, day, hour);

describe.each(databases)('the feed surface on $kind', (database) => {
  const maybe = database.unavailable ? it.skip : it;
  let fixture: GqlFixture | undefined;
  let db: Knex;
  let server: GraphqlServer;
  let issuer: OidcIssuer;
  let tokens: {t1: string; t2: string};

  const get = (path: string, options: {tenant?: 't1' | 't2' | null; headers?: Record<string, string>} = {}) =>
    fetch(`${server.url}${path}`, {
      headers: {...(options.tenant === null ? {} : {authorization: `Bearer ${tokens[options.tenant ?? 't1']}`}), ...options.headers},
    });

  beforeAll(async () => {
    if (database.unavailable) {
      console.warn(`skipping the feed-surface tests on ${database.kind}: ${database.unavailable}`);
      return;
    }
    fixture = await database.createEmpty();
    db = knex(fixture.knexConfig);
    const schema = schemaOf(fixture);
    await db.schema.createTable('posts', (t) => {
      t.integer('id').primary();
      t.string('tenant_id', 20).notNullable();
      t.string('title', 200);
      t.text('body');
      t.string('slug', 100);
      t.datetime('published_at', {useTz: false});
      t.datetime('deleted_at', {useTz: false});
    });
    await db.schema.createTable('entries', (t) => {
      t.string('feed', 20);
      t.integer('seq');
      t.string('title', 200);
      t.text('body');
      t.datetime('at', {useTz: false});
      t.primary(['feed', 'seq']);
    });
    await db.schema.createTable('plain', (t) => {
      t.integer('id').primary();
      t.datetime('at', {useTz: false});
    });
    await db('posts').insert(
      POSTS.map(([id, tenant, title, slug, day, deleted]) => ({
        id,
        tenant_id: tenant,
        title,
        slug,
        body: `<p>Body of ${id}</p><script>alert(${id})</script><a href="/rel" onclick="x()">link</a>`,
        published_at: at(day),
        deleted_at: deleted ? at(6) : null,
      })),
    );
    // 55 entries over two keys, one hour apart; one without a timestamp (never an item).
    const entries = Array.from({length: 55}, (_, i) => ({feed: i % 2 ? 'b b' : 'a/1', seq: i, title: `Entry ${i}`, body: `text ${i}`, at: at(1 + Math.floor(i / 24), i % 24)}));
    await db('entries').insert([...entries, {feed: 'x', seq: 0, title: 'No time', body: null, at: null}]);
    issuer = await startOidcIssuer();
    tokens = {t1: await issuer.mint({sub: 'ann', tenant_id: 't1'}), t2: await issuer.mint({sub: 'bob', tenant_id: 't2'})};
    const service = await openGqlService(
      {
        ...settingsFor(fixture, [
          `${schema}.posts { feed-timestamp: published_at; feed-title: title; feed-body: body; feed-link: https://example.com/posts/{slug}; tenant-filter: tenant_id; soft-delete: deleted_at }`,
          `${schema}.entries { feed-timestamp: at; feed-title: {feed} #{seq}: {title}; feed-body: body; feed-link: https://example.com/{feed}/{seq} }`,
        ]),
        disableAuth: false,
        jwt: {authority: issuer.authority, audience: AUDIENCE},
      },
      {poolMax: 3},
    );
    server = await startGraphqlServer({service, port: 0, playground: {js: '', css: ''}, warn: () => {}});
  });
  afterAll(async () => {
    await server?.close();
    await issuer?.close();
    await db?.destroy();
    await fixture?.drop();
  });

  maybe('RSS 2.0 by default: the user’s own rows, newest first, never a soft-deleted one; read back by the project’s parser', async () => {
    const answer = await get('/feeds/posts');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/rss+xml; charset=utf-8');
    expect(answer.headers.get('vary')).toBe('Accept, Authorization');
    const text = await answer.text();
    expect(wellFormedXml(text)).toBe(true);
    const feed = parseFeed(text, answer.headers.get('content-type'));
    expect(feed.format).toBe('rss');
    expect(feed.items.map((item) => [item.title, item.link, item.published])).toEqual([
      ['Newest of t1', 'https://example.com/posts/newest', new Date(millis(4)).toISOString()],
      // The project's parser reads a title as HTML, so the escaped markup comes back as text without tags.
      ['Second & bold', 'https://example.com/posts/hello%20world%2F%C3%A4%3Fx%3D1%26y', new Date(millis(3)).toISOString()],
      ['Oldest of t1', 'https://example.com/posts/first', new Date(millis(1)).toISOString()],
    ]);
    expect(feed.items.map((item) => item.guid)).toEqual([
      'urn:workbench:gql:' + encodeURIComponent(`${schemaOf(fixture!)}.posts`) + ':4',
      expect.stringMatching(/:2$/),
      expect.stringMatching(/:1$/),
    ]);
    // Sanitised as the gateway sanitises: no script, no handler, links made absolute against the item's link.
    expect(feed.items[0]?.summary).toBe('<p>Body of 4</p><a href="https://example.com/rel">link</a>');
    // Last-Modified: when this version was first served (the conditional GET test), never ahead of the clock.
    const lastModified = Date.parse(answer.headers.get('last-modified') ?? '');
    expect(lastModified).toBeGreaterThan(millis(4));
    expect(lastModified).toBeLessThanOrEqual(Date.now());

    const t2 = parseFeed(await (await get('/feeds/posts', {tenant: 't2'})).text());
    expect(t2.items.map((item) => item.title)).toEqual(['Only of t2']);
  });

  maybe('Atom 1.0 by ?format=atom, the landing page for a browser, RSS for Accept garbage', async () => {
    const atom = await get('/feeds/posts?format=atom');
    expect(atom.headers.get('content-type')).toBe('application/atom+xml; charset=utf-8');
    const feed = parseFeed(await atom.text());
    expect(feed.format).toBe('atom');
    // An Atom title is a text construct: the markup is the title's text.
    expect(feed.items.map((item) => item.title)).toEqual(['Newest of t1', 'Second & <b>bold</b>', 'Oldest of t1']);
    expect(feed.items[0]?.guid).toMatch(/^urn:workbench:gql:.*posts:4$/);

    const page = await get('/feeds/posts', {headers: {accept: 'text/html,application/xhtml+xml,*/*;q=0.8', 'user-agent': FIREFOX}});
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await page.text();
    expect(html).toContain(`${server.url}/feeds/posts?format=atom`);
    expect(html).toContain('Second &amp; &lt;b&gt;bold&lt;/b&gt;');

    for (const accept of ['garbage', '*/*;q=nonsense', ',,;;', 'text/html;q=2', 'x'.repeat(5000)]) {
      const answer = await get('/feeds/posts', {headers: {accept, 'user-agent': FIREFOX}});
      expect([accept.slice(0, 20), answer.status, answer.headers.get('content-type')]).toEqual([accept.slice(0, 20), 200, 'application/rss+xml; charset=utf-8']);
    }
  });

  (hasFeedparser ? maybe : it.skip)('python3-feedparser reads RSS and Atom with no error; items, titles, links, ids and dates agree with the rows', async () => {
    for (const format of ['rss', 'atom']) {
      const parsed = feedparser(Buffer.from(await (await get(`/feeds/posts?format=${format}`)).arrayBuffer()));
      expect([format, parsed.bozo, parsed.bozoException]).toEqual([format, 0, null]);
      expect(parsed.version).toBe(format === 'rss' ? 'rss20' : 'atom10');
      expect(parsed.entries.map((entry) => [entry.title, entry.link, entry.published])).toEqual([
        ['Newest of t1', 'https://example.com/posts/newest', millis(4) / 1000],
        ['Second & <b>bold</b>', 'https://example.com/posts/hello%20world%2F%C3%A4%3Fx%3D1%26y', millis(3) / 1000],
        ['Oldest of t1', 'https://example.com/posts/first', millis(1) / 1000],
      ]);
      expect(parsed.entries.map((entry) => entry.id)).toEqual([4, 2, 1].map((id) => `urn:workbench:gql:${encodeURIComponent(`${schemaOf(fixture!)}.posts`)}:${id}`));
      expect(parsed.entries[0]?.summary).not.toContain('script');
    }
  });

  maybe('a composite key: the newest 50 of 55 rows, ids from both key columns, stable across renders; placeholders filled and URL-encoded in links', async () => {
    const first = parseFeed(await (await get('/feeds/entries')).text());
    expect(first.items).toHaveLength(50);
    expect(first.items[0]).toMatchObject({title: 'a/1 #54: Entry 54', link: 'https://example.com/a%2F1/54'});
    expect(first.items[1]).toMatchObject({title: 'b b #53: Entry 53', link: 'https://example.com/b%20b/53'});
    expect(first.items.at(-1)?.title).toBe('b b #5: Entry 5');
    expect(first.items.some((item) => item.title.startsWith('x #0'))).toBe(false);
    const ids = first.items.map((item) => item.guid);
    expect(new Set(ids).size).toBe(50);
    expect(ids[0]).toMatch(/entries:a%2F1,54$/);
    expect(ids[1]).toMatch(/entries:b%20b,53$/);
    // A row changes; every item keeps its id.
    await db('entries').where({feed: 'b b', seq: 53}).update({title: 'Renamed'});
    const second = parseFeed(await (await get('/feeds/entries')).text());
    expect(second.items.map((item) => item.guid)).toEqual(ids);
    expect(second.items[1]?.title).toBe('b b #53: Renamed');
  });

  maybe('conditional GET: 304 on an unchanged table, 200 with a new ETag once a row is added, bad If-None-Match served in full', async () => {
    // A version first served in the same second as the view's version before it has no date yet: ask again until it has.
    let first = await get('/feeds/posts');
    while (!first.headers.get('last-modified')) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      first = await get('/feeds/posts');
    }
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[0-9a-f]{64}-rss"$/);
    const again = await get('/feeds/posts', {headers: {'if-none-match': etag}});
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    expect(again.headers.get('etag')).toBe(etag);
    // Another representation has another tag; another tenant sees other rows, so another tag.
    expect((await get('/feeds/posts?format=atom', {headers: {'if-none-match': etag}})).status).toBe(200);
    expect((await get('/feeds/posts', {tenant: 't2', headers: {'if-none-match': etag}})).status).toBe(200);
    for (const bad of ['garbage', '"nope"', 'W/', '""', ',,,', `"${'f'.repeat(5000)}"`]) {
      const answer = await get('/feeds/posts', {headers: {'if-none-match': bad}});
      expect([bad.slice(0, 10), answer.status]).toEqual([bad.slice(0, 10), 200]);
    }
    // If-Modified-Since: Last-Modified is when this version was first served, not the newest
    // item's date (an edit or a delete changes a feed without a newer timestamp).
    const lastModified = first.headers.get('last-modified')!;
    expect(Date.parse(lastModified)).toBeGreaterThan(millis(30));
    const sinceServed = await get('/feeds/posts', {headers: {'if-modified-since': lastModified}});
    expect([sinceServed.status, sinceServed.headers.get('last-modified')]).toEqual([304, lastModified]);
    expect((await get('/feeds/posts', {headers: {'if-modified-since': new Date(millis(30)).toUTCString()}})).status).toBe(200);
    for (const bad of ['garbage', '', 'Tue, 99 Foo 2026 00:00:00 GMT']) expect((await get('/feeds/posts', {headers: {'if-modified-since': bad}})).status).toBe(200);

    await db('posts').insert({id: 7, tenant_id: 't1', title: 'Brand new', slug: 'new', body: 'x', published_at: at(9)});
    const changed = await get('/feeds/posts', {headers: {'if-none-match': etag}});
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(etag);
    expect(parseFeed(await changed.text()).items[0]?.title).toBe('Brand new');
    // The new version is dated after the old one (or not at all within the same second): the old date no longer says 304.
    const changedDate = changed.headers.get('last-modified');
    if (changedDate !== null) expect(Date.parse(changedDate)).toBeGreaterThan(Date.parse(lastModified));
    expect((await get('/feeds/posts', {headers: {'if-modified-since': lastModified}})).status).toBe(200);
    // A soft delete changes the feed too.
    const before = changed.headers.get('etag')!;
    await db('posts')
      .where({id: 7})
      .update({deleted_at: at(10)});
    const deleted = await get('/feeds/posts', {headers: {'if-none-match': before}});
    expect(deleted.status).toBe(200);
    expect(parseFeed(await deleted.text()).items[0]?.title).toBe('Newest of t1');
  });

  maybe('HEAD answers the headers of GET without the body', async () => {
    const got = await get('/feeds/posts');
    const head = await fetch(`${server.url}/feeds/posts`, {method: 'HEAD', headers: {authorization: `Bearer ${tokens.t1}`}});
    expect(head.status).toBe(200);
    expect(head.headers.get('etag')).toBe(got.headers.get('etag'));
    expect(await head.text()).toBe('');
  });

  maybe('bad input: unknown table, a table without feed-timestamp, a bad format, a stray parameter, no token', async () => {
    for (const path of ['/feeds/nope', '/feeds/plain', `/feeds/${'x'.repeat(90)}`, '/feeds/posts%00', '/feeds/Posts']) {
      const answer = await get(path);
      const body = await answer.json();
      expect([path.slice(0, 20), answer.status, body.error.code]).toEqual([path.slice(0, 20), 404, 'not_found']);
      expect(body.error.message).toMatch(/no feed ".*" here/);
    }
    const format = await get('/feeds/posts?format=pdf');
    expect(format.status).toBe(400);
    expect((await format.json()).error.message).toContain('format must be one of rss, atom, html');
    expect((await get('/feeds/posts?page=2')).status).toBe(400);
    // A token without the tenant claim may not read the tenant-isolated table at all: 403 with the reason.
    const noTenant = await fetch(`${server.url}/feeds/posts`, {headers: {authorization: `Bearer ${await issuer.mint({sub: 'eve'})}`}});
    expect(noTenant.status).toBe(403);
    expect((await noTenant.json()).error.message).toContain('isolated by tenant');
    // The composite-key table has no tenant filter: that token reads it.
    expect((await fetch(`${server.url}/feeds/entries`, {headers: {authorization: `Bearer ${await issuer.mint({sub: 'eve'})}`}})).status).toBe(200);
    const anonymous = await get('/feeds/posts', {tenant: null});
    expect(anonymous.status).toBe(401);
    expect(await anonymous.text()).not.toMatch(/ at .*\.ts:\d+/);
  });
});
