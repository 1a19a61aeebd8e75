import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {serverAudits} from 'graphql-http';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {startOidcIssuer, type OidcIssuer} from '../../../fixtures/oidc-issuer/issuer.js';
import {openGqlService} from '../../../source/gql/service.js';
import {startGraphqlServer, type GraphqlServer} from '../../../servers/graphql/index.js';
import {CLAIM_RULES, createArtistDatabase, gqlTestSettings} from '../../helpers/gql-test-service.js';

// The server over the real service (openGqlService on a SQLite file of its own): how claims become
// the user is seen through the metadata rules they drive — `note` rows by `sub` (auto-filter), its
// `created_by` from the audit key (populate), `_table` for role `reader`, `_rawQuery` for `gql-admin`.

const AUDIENCE = 'workbench-api';
let dir: string;
let issuer: OidcIssuer;
let open: GraphqlServer;
let secured: GraphqlServer;
const warnings: string[] = [];

async function sqliteService(name: string, settings: Parameters<typeof gqlTestSettings>[0]) {
  const connectionString = await createArtistDatabase(join(dir, `${name}.sqlite`));
  return openGqlService(gqlTestSettings({...settings, connectionString, metadata: CLAIM_RULES}));
}

type Answer = {data?: Record<string, unknown> | null; errors?: Array<{message: string; extensions?: {code?: string}}>};

const post = (server: GraphqlServer, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${server.url}/graphql`, {
    method: 'POST',
    headers: {'content-type': 'application/json', accept: 'application/json', ...headers},
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'wb-gql-server-'));
  issuer = await startOidcIssuer();
  open = await startGraphqlServer({service: await sqliteService('open', {disableAuth: true}), port: 0, playground: {js: '', css: ''}, warn: (line) => warnings.push(line)});
  secured = await startGraphqlServer({
    service: await sqliteService('secured', {jwt: {authority: issuer.authority, audience: AUDIENCE}}),
    port: 0,
    playground: {js: '', css: ''},
    warn: (line) => warnings.push(line),
  });
});

afterAll(async () => {
  await open?.close();
  await secured?.close();
  await issuer?.close();
  rmSync(dir, {recursive: true, force: true});
});

describe('graphql-http audits', () => {
  it('the server passes every GraphQL-over-HTTP audit with no error', async () => {
    const results = await Promise.all(serverAudits({url: `${open.url}/graphql`}).map(async (audit) => ({name: audit.name, result: await audit.fn()})));
    const errors = results.filter(({result}) => result.status === 'error').map(({name, result}) => `${name}: ${'reason' in result ? result.reason : ''}`);
    expect(errors).toEqual([]);
    expect(results.length).toBeGreaterThan(30);
  });

  it('answers a success and a failure in the media type Accept asks first, the success written plainly byte for byte as JSON.stringify has it', async () => {
    const query = '{ artist(sort: [id_asc], limit: 2) { data { name } } }';
    const cases: Array<[string | undefined, string]> = [
      ['application/graphql-response+json', 'application/graphql-response+json; charset=utf-8'],
      ['application/graphql-response+json; charset=utf-8, application/json', 'application/graphql-response+json; charset=utf-8'],
      ['application/json, application/graphql-response+json', 'application/json; charset=utf-8'],
      ['text/html, application/graphql-response+json', 'application/graphql-response+json; charset=utf-8'],
      ['*/*', 'application/json; charset=utf-8'],
      [undefined, 'application/json; charset=utf-8'],
    ];
    for (const [accept, type] of cases) {
      const headers: Record<string, string> = {'content-type': 'application/json'};
      if (accept !== undefined) headers.accept = accept;
      const ok = await fetch(`${open.url}/graphql`, {method: 'POST', headers, body: JSON.stringify({query})});
      expect([ok.status, ok.headers.get('content-type')], String(accept)).toEqual([200, type]);
      expect(await ok.text()).toBe(JSON.stringify({data: {artist: {data: [{name: 'AC/DC'}, {name: 'Accept'}]}}}));
      // A failure keeps graphql-http's own answer: 200 for application/json, 400 for the GraphQL media type.
      const bad = await fetch(`${open.url}/graphql`, {method: 'POST', headers, body: JSON.stringify({query: '{ artist { data { nope } } }'})});
      expect([bad.status, bad.headers.get('content-type')], String(accept)).toEqual([type.startsWith('application/json') ? 200 : 400, type]);
      expect(((await bad.json()) as Answer).errors?.[0]?.message).toMatch(/nope/);
    }
    expect((await fetch(`${open.url}/graphql`, {method: 'POST', headers: {'content-type': 'application/json', accept: 'text/html'}, body: JSON.stringify({query})})).status).toBe(
      406,
    );
  });
});

describe('DisableAuth', () => {
  it('warns at start that no token is checked, and serves the anonymous user: no claims, no roles', async () => {
    expect(warnings.filter((line) => line.includes('DisableAuth'))).toHaveLength(1);
    const artists = await (await post(open, {query: '{ artist(sort: [id_asc]) { data { name } } }'})).json();
    expect(artists).toEqual({data: {artist: {data: [{name: 'AC/DC'}, {name: 'Accept'}, {name: 'Aerosmith'}]}}});
    // No `sub` claim: the auto-filtered table is closed, not served unfiltered.
    const notes = (await (await post(open, {query: '{ note { data { body } } }'})).json()) as Answer;
    expect(notes.data).toEqual({note: null});
    expect(notes.errors?.[0]).toMatchObject({message: 'note is filtered on owner by the "sub" claim, which the request does not carry', extensions: {code: 'forbidden'}});
    const table = (await (await post(open, {query: '{ _table(name: "artist") }'})).json()) as Answer;
    expect(table.errors?.[0]?.message).toBe('_table needs the role reader');
  });
});

describe('tokens', () => {
  const anyQuery = '{ artist(limit: 1) { data { id } } }';
  it('a valid token: the claims become the user — its rows, its audit key, its roles from `roles` and `role`', async () => {
    const token = await issuer.mint({sub: 'ada', roles: ['gql-admin'], role: 'reader'});
    const as = {authorization: `Bearer ${token}`};
    const notes = await post(secured, {query: '{ note(sort: [id_asc]) { data { body owner } } }'}, as);
    expect(notes.status).toBe(200);
    expect(await notes.json()).toEqual({
      data: {
        note: {
          data: [
            {body: 'ada: first', owner: 'ada'},
            {body: 'ada: second', owner: 'ada'},
          ],
        },
      },
    });
    const inserted = (await (await post(secured, {query: 'mutation { note(insert: {body: "by token"}) }'}, as)).json()) as {data: {note: number}};
    const written = await post(secured, {query: `{ note(filter: {id: {_eq: ${inserted.data.note}}}) { data { body owner created_by } } }`}, as);
    expect(await written.json()).toEqual({data: {note: {data: [{body: 'by token', owner: 'ada', created_by: 'ada'}]}}});
    // `reader` came from the `role` claim, `gql-admin` from `roles`.
    expect(await (await post(secured, {query: '{ _table(name: "artist", limit: 1) }'}, as)).json()).toEqual({data: {_table: [{id: 1, name: 'AC/DC'}]}});
    expect(await (await post(secured, {query: '{ _rawQuery(sql: "select 1 as one") }'}, as)).json()).toEqual({data: {_rawQuery: [{one: 1}]}});

    const bob = {authorization: `Bearer ${await issuer.mint({sub: 'bob'})}`};
    expect(await (await post(secured, {query: '{ note { data { body } } }'}, bob)).json()).toEqual({data: {note: {data: [{body: 'bob: only'}]}}});
    const roleless = (await (await post(secured, {query: '{ _rawQuery(sql: "select 1 as one") }'}, bob)).json()) as Answer;
    expect(roleless.errors?.[0]).toMatchObject({message: '_rawQuery needs the role gql-admin', extensions: {code: 'forbidden'}});
  });

  const refused: Array<[string, () => Promise<string | undefined>, RegExp]> = [
    ['no header', async () => undefined, /authentication required: send Authorization: Bearer <token>/],
    ['garbage header', async () => 'Basic Zm9vOmJhcg==', /must be "Bearer <token>"/],
    ['a token that is no JWT', async () => 'Bearer not.a.jwt', /not a valid signed JWT/],
    ['expired', async () => `Bearer ${await issuer.mint({sub: 'ada'}, {expiresInSeconds: -3600})}`, /invalid token: it expired at /],
    ['wrong audience', async () => `Bearer ${await issuer.mint({sub: 'ada'}, {audience: 'someone-else'})}`, /its audience is "someone-else", not "workbench-api"/],
    ['no audience', async () => `Bearer ${await issuer.mint({sub: 'ada'}, {audience: null})}`, /audience|"aud"/],
    ['wrong issuer', async () => `Bearer ${await issuer.mint({sub: 'ada'}, {issuer: 'https://evil.example/realms/x'})}`, /it was issued by "https:\/\/evil.example\/realms\/x"/],
    [
      'the issuer with a trailing slash',
      async () => `Bearer ${await issuer.mint({sub: 'ada'}, {issuer: `${issuer.authority}/`})}`,
      /it was issued by "http:\/\/127\.0\.0\.1:\d+\/realms\/workbench\/", not "http:/,
    ],
    [
      'issued in the future (beyond the 30 s tolerance)',
      async () => `Bearer ${await issuer.mint({sub: 'ada'}, {issuedInSeconds: 365 * 86400})}`,
      /it was issued in the future \(iat \d{4}-/,
    ],
    ['issued 40 s ahead', async () => `Bearer ${await issuer.mint({sub: 'ada'}, {issuedInSeconds: 40})}`, /issued in the future/],
    ['bad signature', async () => `Bearer ${await issuer.mint({sub: 'ada'}, {foreignKey: true})}`, /signature does not verify/],
    [
      'alg none',
      async () => {
        const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
        const now = Math.floor(Date.now() / 1000);
        return `Bearer ${part({alg: 'none', typ: 'JWT'})}.${part({sub: 'ada', iss: issuer.authority, aud: AUDIENCE, exp: now + 600})}.`;
      },
      /invalid token/,
    ],
  ];
  it.each(refused)('%s: 401 with the reason, in GraphQL’s error shape', async (_name, header, message) => {
    const value = await header();
    const response = await post(secured, {query: anyQuery}, value === undefined ? {} : {authorization: value});
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token"/);
    const body = (await response.json()) as {errors: Array<{message: string; extensions: {code: string}}>};
    expect(body.errors).toHaveLength(1);
    expect(body.errors[0]!.extensions.code).toBe('unauthorized');
    expect(body.errors[0]!.message).toMatch(message);
  });

  it("an identity provider that is down: 503 with its own code, not the token's fault", async () => {
    const gone = await startOidcIssuer();
    const token = await gone.mint({sub: 'ada'});
    await gone.close();
    const server = await startGraphqlServer({
      service: await sqliteService('gone-idp', {jwt: {authority: gone.authority, audience: AUDIENCE}}),
      port: 0,
      playground: {js: '', css: ''},
      warn: () => undefined,
    });
    try {
      const response = await post(server, {query: anyQuery}, {authorization: `Bearer ${token}`});
      expect(response.status).toBe(503);
      const body = (await response.json()) as {errors: Array<{message: string; extensions: {code: string}}>};
      expect(body.errors[0]!.extensions.code).toBe('identity_provider_unavailable');
      expect(body.errors[0]!.message).toMatch(/the identity provider .* is unavailable .*retry later/);
    } finally {
      await server.close();
    }
  });

  it('a clock 20 s ahead is within the tolerance', async () => {
    const token = await issuer.mint({sub: 'ada'}, {issuedInSeconds: 20});
    expect((await post(secured, {query: anyQuery}, {authorization: `Bearer ${token}`})).status).toBe(200);
  });

  it('the JWKS is fetched once for many requests', async () => {
    const token = await issuer.mint({sub: 'bob'});
    for (let i = 0; i < 3; i++) expect((await post(secured, {query: anyQuery}, {authorization: `Bearer ${token}`})).status).toBe(200);
    expect(issuer.hits.get('/realms/workbench/protocol/openid-connect/certs')).toBe(1);
    expect(issuer.hits.get('/realms/workbench/.well-known/openid-configuration')).toBe(1);
  });

  it('a token is checked before validation: an unauthenticated client learns nothing of the schema', async () => {
    const response = await post(secured, {query: '{ secretTable { id } }'});
    expect(response.status).toBe(401);
    expect(await response.text()).not.toContain('secretTable');
  });
});

describe('Host and Origin guard', () => {
  it('refuses a cross-site POST and a foreign Host, accepts its own origin', async () => {
    const port = new URL(open.url).port;
    const crossSite = await post(open, {query: 'mutation { artist(insert: {name: "x"}) }'}, {origin: 'https://evil.example'});
    expect(crossSite.status).toBe(403);
    expect(await crossSite.json()).toMatchObject({error: {code: 'cross_site_refused'}});
    const fetchSite = await post(open, {query: '{ artist { data { id } } }'}, {'sec-fetch-site': 'cross-site'});
    expect(fetchSite.status).toBe(403);
    const own = await post(open, {query: '{ artist(limit: 1) { data { id } } }'}, {origin: `http://127.0.0.1:${port}`});
    expect(own.status).toBe(200);
    const {request} = await import('node:http');
    const status = await new Promise<number>((resolve, reject) => {
      const req = request({host: '127.0.0.1', port, path: '/graphql?query=%7Bartist%7Bid%7D%7D', headers: {host: 'evil.example'}}, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(403);
  });
});

describe('cross-site reads', () => {
  const get = (path: string, headers: Record<string, string> = {}) => fetch(`${open.url}${path}`, {headers: {accept: 'application/json', ...headers}});
  const query = `/graphql?query=${encodeURIComponent('{ artist(limit: 1) { data { id } } }')}`;

  it("a query over GET from another site's page is refused, as a POST is: Origin, Sec-Fetch-Site cross-site or same-site", async () => {
    for (const headers of [{origin: 'https://evil.example'} as Record<string, string>, {'sec-fetch-site': 'cross-site'}, {'sec-fetch-site': 'same-site'}, {origin: 'null'}]) {
      const answer = await get(query, headers);
      expect(answer.status, JSON.stringify(headers)).toBe(403);
      expect(await answer.json()).toMatchObject({error: {code: 'cross_site_refused', message: expect.stringMatching(/takes requests only from its own pages and from programs/)}});
    }
    const head = await fetch(`${open.url}${query}`, {method: 'HEAD', headers: {'sec-fetch-site': 'cross-site'}});
    expect(head.status).toBe(403);
  });

  it('its own pages and programs still read; the playground and the feed surface open from any site', async () => {
    const port = new URL(open.url).port;
    for (const headers of [{} as Record<string, string>, {'sec-fetch-site': 'same-origin'}, {'sec-fetch-site': 'none'}, {origin: `http://127.0.0.1:${port}`}]) {
      const answer = await get(query, headers);
      expect(answer.status, JSON.stringify(headers)).toBe(200);
      expect(((await answer.json()) as Answer).data).toEqual({artist: {data: [{id: 1}]}});
    }
    const playground = await fetch(`${open.url}/`, {headers: {accept: 'text/html', 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate'}});
    expect(playground.status).toBe(200);
    const feed = await fetch(`${open.url}/feeds/artist`, {headers: {'sec-fetch-site': 'cross-site'}});
    expect(feed.status).not.toBe(403);
  });
});

describe('debug header', () => {
  it('X-Gql-Debug: 1 puts the SQL sent in extensions.sql; without it there is none', async () => {
    const debug = (await (await post(open, {query: '{ artist(limit: 2, sort: [id_asc]) { data { name } } }'}, {'x-gql-debug': '1'})).json()) as {
      data: unknown;
      extensions: {sql: {count: number; statements: Array<{sql: string; bindings: unknown[]}>}};
    };
    expect(debug.data).toEqual({artist: {data: [{name: 'AC/DC'}, {name: 'Accept'}]}});
    expect(debug.extensions.sql.count).toBe(1);
    expect(debug.extensions.sql.statements[0]!.sql).toMatch(/^select .*from `artist` as `t0` order by `t0`.`id` asc limit \?$/);
    expect(debug.extensions.sql.statements[0]!.bindings).toEqual([2]);
    const sqlWord = (await (await post(open, {query: '{ artist(limit: 1) { data { name } } }'}, {'x-gql-debug': 'sql'})).json()) as {extensions?: unknown};
    expect(sqlWord.extensions).toBeDefined();
    const plain = (await (await post(open, {query: '{ artist(limit: 1) { data { name } } }'})).json()) as {extensions?: unknown};
    expect(plain.extensions).toBeUndefined();
  });
});

describe('bad input', () => {
  it('a body that is not JSON: 400 in the kit’s words', async () => {
    const response = await post(open, '{"query": ');
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({error: {code: 'invalid_body', message: expect.stringMatching(/not valid JSON/)}});
  });

  it('a wrong content type: 415', async () => {
    const response = await fetch(`${open.url}/graphql`, {method: 'POST', headers: {'content-type': 'text/plain'}, body: '{ artist { data { id } } }'});
    expect(response.status).toBe(415);
    const form = await fetch(`${open.url}/graphql`, {method: 'POST', headers: {'content-type': 'application/x-www-form-urlencoded'}, body: 'query=%7B%7D'});
    expect(form.status).toBe(415);
  });

  it('a huge query: a body over the limit is 413; a long document stops at the token limit', async () => {
    const tooBig = await post(open, {query: `{ ${'artist { id } '.repeat(100_000)} }`});
    expect(tooBig.status).toBe(413);
    const manyTokens = (await (await post(open, {query: `{ ${'id '.repeat(30_000)} }`})).json()) as {errors: Array<{message: string}>};
    expect(manyTokens.errors[0]!.message).toMatch(/Document contains more tha[nt] 20000 tokens/);
  });

  it('a mutation over GET: 405, and nothing is written', async () => {
    const response = await fetch(`${open.url}/graphql?query=${encodeURIComponent('mutation { artist(insert: {name: "via GET"}) }')}`, {headers: {accept: 'application/json'}});
    expect(response.status).toBe(405);
    const names = (await (await post(open, {query: '{ artist(limit: -1) { data { name } total } }'})).json()) as {data: {artist: {data: Array<{name: string}>; total: number}}};
    expect(names.data.artist.data.map((row) => row.name)).not.toContain('via GET');
    // The same mutation over POST does write: the 405 is the method, not the document.
    expect(await (await post(open, {query: 'mutation { artist(insert: {name: "via POST"}) }'})).json()).toEqual({data: {artist: expect.any(Number)}});
    const after = (await (await post(open, {query: '{ artist(limit: -1) { data { name } } }'})).json()) as {data: {artist: {data: Array<{name: string}>}}};
    expect(after.data.artist.data.map((row) => row.name)).toContain('via POST');
  });

  it('syntax errors, unknown fields, wrong argument types, bad variables: GraphQL errors, no 500', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{query: '{ artist { data { id '}, /Syntax Error/],
      [{query: '{ nope }'}, /Cannot query field "nope" on type "Query"/],
      [{query: '{ artist { id } }'}, /Cannot query field "id" on type "artist_paged"/],
      [{query: '{ artist(limit: "ten") { data { id } } }'}, /Int cannot represent non-integer value/],
      [{query: 'query ($n: Int) { artist(limit: $n) { data { id } } }', variables: {n: 'x'}}, /Variable "\$n" got invalid value "x"/],
      [{query: '{ artist { data { id } } }', variables: 'not an object'}, /Invalid variables/],
      [{query: ''}, /./],
      [{query: 42}, /Invalid query/],
      [[], /Missing query|must be an object/],
    ];
    for (const [body, message] of cases) {
      const response = await post(open, body);
      expect(response.status, JSON.stringify(body)).toBeLessThan(500);
      const answer = (await response.json()) as {errors: Array<{message: string}>};
      expect(answer.errors[0]!.message, JSON.stringify(body)).toMatch(message);
    }
  });

  it('unknown query parameters and other methods are refused cleanly', async () => {
    const unknown = await fetch(`${open.url}/graphql?query=%7Bartist%7Bid%7D%7D&debug=1`);
    expect(unknown.status).toBe(400);
    const put = await fetch(`${open.url}/graphql`, {method: 'PUT', headers: {'content-type': 'application/json'}, body: '{}'});
    expect(put.status).toBe(404);
  });
});
