import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import knex from 'knex';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {bundlePlayground} from '../../scripts/playground.mjs';
import {chromiumPath} from '../../source/browser/chromium.js';
import {outboxDdl} from '../../source/gql/events/outbox-contract.js';
import {openGqlService} from '../../source/gql/service.js';
import type {GqlService} from '../../source/gql/types.js';
import {PLAYGROUND_ASSETS, startGraphqlServer, type GraphqlServer} from '../../servers/graphql/index.js';
import {requirePackage} from '../helpers/system-package.js';
import {createArtistDatabase, gqlTestSettings} from '../helpers/gql-test-service.js';

const hasChromium = !requirePackage('chromium', {for: 'the GraphQL playground test'});
let dir: string;
let server: GraphqlServer;
let service: GqlService;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'wb-gql-playground-'));
  const connectionString = await createArtistDatabase(join(dir, 'db.sqlite'));
  const db = knex({client: 'better-sqlite3', connection: {filename: join(dir, 'db.sqlite')}, useNullAsDefault: true});
  for (const statement of outboxDdl('sqlite', 'main', 'wb_outbox')) await db.raw(statement);
  await db.destroy();
  service = await openGqlService(
    gqlTestSettings({disableAuth: true, connectionString, metadata: [':root { outbox-table: wb_outbox; }', 'main.artist { emit-events: insert, update, delete; }']}),
  );
  // The same bundle the build writes to dist/playground.
  server = await startGraphqlServer({service, port: 0, playground: await bundlePlayground(), warn: () => {}});
}, 120_000);

afterAll(async () => {
  await server?.close();
  rmSync(dir, {recursive: true, force: true});
});

describe('the playground page', () => {
  it('GET / is a GraphiQL page whose script and stylesheet come from this server', async () => {
    const response = await fetch(`${server.url}/`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await response.text();
    expect(html).toContain(`src="${PLAYGROUND_ASSETS}/graphiql.js"`);
    expect(html).toContain(`href="${PLAYGROUND_ASSETS}/graphiql.css"`);
    expect(html).toContain('data-endpoint="/graphql"');
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
    const script = await fetch(`${server.url}${PLAYGROUND_ASSETS}/graphiql.js`);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect((await script.text()).length).toBeGreaterThan(100_000);
    const css = await fetch(`${server.url}${PLAYGROUND_ASSETS}/graphiql.css`);
    expect(css.status).toBe(200);
    expect(await css.text()).toContain('.graphiql-container');
    const again = await fetch(`${server.url}${PLAYGROUND_ASSETS}/graphiql.css`, {headers: {'if-none-match': css.headers.get('etag')!}});
    expect(again.status).toBe(304);
  });
});

describe.skipIf(!hasChromium)('GraphiQL in headless Chromium', () => {
  let browser: import('playwright-core').Browser;
  beforeAll(async () => {
    const {chromium} = await import('playwright-core');
    browser = await chromium.launch({
      executablePath: chromiumPath(),
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  it('renders with nothing from another host, and runs a query against the server', async () => {
    const page = await browser.newPage();
    const elsewhere: string[] = [];
    const problems: string[] = [];
    // Only this server may be reached: a CDN request fails the test.
    await page.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith(server.url) || url.startsWith('data:')) return route.continue();
      elsewhere.push(url);
      return route.abort();
    });
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    await page.goto(`${server.url}/`);
    await page.locator('.graphiql-container').waitFor({timeout: 20_000});
    await page.locator('.graphiql-query-editor .CodeMirror').waitFor({timeout: 20_000});
    await page.evaluate(() => {
      const editor = document.querySelector('.graphiql-query-editor .CodeMirror') as unknown as {CodeMirror: {setValue(text: string): void}};
      editor.CodeMirror.setValue('{ artist(limit: 2, sort: [id_asc]) { data { id name } total } }');
    });
    await page.locator('.graphiql-execute-button').click();
    const response = page.locator('.graphiql-response');
    await expect.poll(() => response.innerText(), {timeout: 20_000}).toContain('Accept');
    expect(await response.innerText()).toContain('AC/DC');
    expect(await response.innerText()).not.toContain('Aerosmith');
    expect(elsewhere).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('runs a subscription over WebSocket and shows the changes as they commit', async () => {
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    await page.goto(`${server.url}/`);
    await page.locator('.graphiql-query-editor .CodeMirror').waitFor({timeout: 20_000});
    await page.evaluate(() => {
      const editor = document.querySelector('.graphiql-query-editor .CodeMirror') as unknown as {CodeMirror: {setValue(text: string): void}};
      editor.CodeMirror.setValue('subscription { artistChanged { op row { name } } }');
    });
    await page.locator('.graphiql-execute-button').click();
    const response = page.locator('.graphiql-response');
    // The socket opens after the click: write until a change shows (each write is a new artist).
    await expect
      .poll(
        async () => {
          await service.execute({query: 'mutation { artist(insert: {name: "Zappa"}) }', user: {claims: {}, roles: [], anonymous: true}});
          return response.innerText();
        },
        {timeout: 20_000, interval: 300},
      )
      .toContain('Zappa');
    expect(await response.innerText()).toContain('insert');
    expect(problems).toEqual([]);
    await page.close();
  });
});
