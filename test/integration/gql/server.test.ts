import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {serverAudits} from 'graphql-http';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {startOidcIssuer, type OidcIssuer} from '../../../fixtures/oidc-issuer/issuer.js';
import {startGraphqlServer, type GraphqlServer} from '../../../servers/graphql/index.js';
import {artistService, gqlTestSettings} from '../../helpers/gql-test-service.js';

const AUDIENCE = 'workbench-api';
let dir: string;
let issuer: OidcIssuer;
let open: GraphqlServer;
let secured: GraphqlServer;
const warnings: string[] = [];

async function sqliteService(name: string, settings: Parameters<typeof gqlTestSettings>[0]) {
  return artistService({client: 'better-sqlite3', connection: {filename: join(dir, `${name}.sqlite`)}, useNullAsDefault: true}, gqlTestSettings(settings));
}

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
});

describe('DisableAuth', () => {
  it('warns at start that no token is checked, and serves the anonymous user', async () => {
    expect(warnings.filter((line) => line.includes('DisableAuth'))).toHaveLength(1);
    const answer = await (await post(open, {query: '{ me { sub anonymous } }'})).json();
    expect(answer).toEqual({data: {me: {sub: null, anonymous: 'true'}}});
  });
});

describe('tokens', () => {
  const me = '{ me { sub roles } }';
  it('a valid token: the claims become the user', async () => {
    const token = await issuer.mint({sub: 'ada', roles: ['gql-admin'], role: 'reader'});
    const response = await post(secured, {query: me}, {authorization: `Bearer ${token}`});
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({data: {me: {sub: 'ada', roles: ['gql-admin', 'reader']}}});
  });

  const refused: Array<[string, () => Promise<string | undefined>, RegExp]> = [
    ['no header', async () => undefined, /authentication required: send Authorization: Bearer <token>/],
    ['garbage header', async () => 'Basic Zm9vOmJhcg==', /must be "Bearer <token>"/],
    ['a token that is no JWT', async () => 'Bearer not.a.jwt', /not a valid signed JWT/],
    ['expired', async () => `Bearer ${await issuer.mint({sub: 'ada'}, {expiresInSeconds: -3600})}`, /invalid token: it expired at /],
    ['wrong audience', async () => `Bearer ${await issuer.mint({sub: 'ada'}, {audience: 'someone-else'})}`, /its audience is "someone-else", not "workbench-api"/],
    ['no audience', async () => `Bearer ${await issuer.mint({sub: 'ada'}, {audience: null})}`, /audience|"aud"/],
    ['wrong issuer', async () => `Bearer ${await issuer.mint({sub: 'ada'}, {issuer: 'https://evil.example/realms/x'})}`, /it was issued by "https:\/\/evil.example\/realms\/x"/],
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
    const response = await post(secured, {query: me}, value === undefined ? {} : {authorization: value});
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token"/);
    const body = (await response.json()) as {errors: Array<{message: string; extensions: {code: string}}>};
    expect(body.errors).toHaveLength(1);
    expect(body.errors[0]!.extensions.code).toBe('unauthorized');
    expect(body.errors[0]!.message).toMatch(message);
  });

  it('the JWKS is fetched once for many requests', async () => {
    const token = await issuer.mint({sub: 'bob'});
    for (let i = 0; i < 3; i++) expect((await post(secured, {query: me}, {authorization: `Bearer ${token}`})).status).toBe(200);
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
    const crossSite = await post(open, {query: 'mutation { addArtist(name: "x") { id } }'}, {origin: 'https://evil.example'});
    expect(crossSite.status).toBe(403);
    expect(await crossSite.json()).toMatchObject({error: {code: 'cross_site_refused'}});
    const fetchSite = await post(open, {query: '{ artist { id } }'}, {'sec-fetch-site': 'cross-site'});
    expect(fetchSite.status).toBe(403);
    const own = await post(open, {query: '{ artist(limit: 1) { id } }'}, {origin: `http://127.0.0.1:${port}`});
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

describe('debug header', () => {
  it('X-Gql-Debug: 1 puts the SQL sent in extensions.sql; without it there is none', async () => {
    const debug = (await (await post(open, {query: '{ artist(limit: 2) { name } }'}, {'x-gql-debug': '1'})).json()) as {
      data: unknown;
      extensions: {sql: {count: number; statements: Array<{sql: string; bindings: unknown[]}>}};
    };
    expect(debug.data).toEqual({artist: [{name: 'AC/DC'}, {name: 'Accept'}]});
    expect(debug.extensions.sql.count).toBe(1);
    expect(debug.extensions.sql.statements[0]!.sql).toMatch(/^select .*from `artist`/);
    expect(debug.extensions.sql.statements[0]!.bindings).toEqual([2]);
    const sqlWord = (await (await post(open, {query: '{ artist(limit: 1) { name } }'}, {'x-gql-debug': 'sql'})).json()) as {extensions?: unknown};
    expect(sqlWord.extensions).toBeDefined();
    const plain = (await (await post(open, {query: '{ artist(limit: 1) { name } }'})).json()) as {extensions?: unknown};
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
    const response = await fetch(`${open.url}/graphql`, {method: 'POST', headers: {'content-type': 'text/plain'}, body: '{ artist { id } }'});
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
    const response = await fetch(`${open.url}/graphql?query=${encodeURIComponent('mutation { addArtist(name: "via GET") { id } }')}`, {headers: {accept: 'application/json'}});
    expect(response.status).toBe(405);
    const names = (await (await post(open, {query: '{ artist { name } }'})).json()) as {data: {artist: Array<{name: string}>}};
    expect(names.data.artist.map((row) => row.name)).not.toContain('via GET');
  });

  it('syntax errors, unknown fields, wrong argument types, bad variables: GraphQL errors, no 500', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{query: '{ artist { id '}, /Syntax Error/],
      [{query: '{ nope }'}, /Cannot query field "nope" on type "Query"/],
      [{query: '{ artist(limit: "ten") { id } }'}, /Int cannot represent non-integer value/],
      [{query: 'query ($n: Int) { artist(limit: $n) { id } }', variables: {n: 'x'}}, /Variable "\$n" got invalid value "x"/],
      [{query: '{ artist { id } }', variables: 'not an object'}, /Invalid variables/],
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
