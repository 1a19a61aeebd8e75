// File columns through the real server (startGraphqlServer over openGqlService) on each database:
// uploads as GraphQL multipart requests streamed to a disk storage of the test's own, downloads
// through the user's row rules, and every refusal leaving no file and no row behind.
import {mkdtempSync, readdirSync, rmSync} from 'node:fs';
import {request as httpRequest} from 'node:http';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import knex, {type Knex} from 'knex';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {startOidcIssuer, type OidcIssuer} from '../../../fixtures/oidc-issuer/issuer.js';
import {startGraphqlServer, type GraphqlServer} from '../../../servers/graphql/index.js';
import {openGqlService} from '../../../source/gql/service.js';
import {gqlDatabases, settingsFor, type GqlFixture} from '../../helpers/gql-databases.js';
import {testPng} from '../../helpers/test-png.js';

const databases = await gqlDatabases();
const AUDIENCE = 'workbench-api';
const MAX_SIZE = 64 * 1024;

const schemaOf = (fixture: GqlFixture) => (fixture.provider === 'sqlite' ? 'main' : fixture.provider === 'postgres' ? 'public' : fixture.database);

const png = testPng;
const zip = () => new Uint8Array([...Buffer.from('504b0304140000000800', 'hex'), ...Buffer.alloc(200, 1)]);

const INSERT = 'mutation($f: Upload!) { documents(insert: {file_key: $f}) }';

let home: string;
let issuer: OidcIssuer;
const saved = process.env.WORKBENCH_HOME;
beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'wb-gql-files-'));
  process.env.WORKBENCH_HOME = home;
  issuer = await startOidcIssuer();
});
afterAll(async () => {
  await issuer?.close();
  if (saved === undefined) delete process.env.WORKBENCH_HOME;
  else process.env.WORKBENCH_HOME = saved;
  rmSync(home, {recursive: true, force: true});
});

describe.each(databases.map((database) => [database.kind, database] as const))('file columns over HTTP (%s)', (_kind, database) => {
  const maybe = it.skipIf(database.unavailable !== null);
  let fixture: GqlFixture;
  let db: Knex;
  let server: GraphqlServer;
  let storeDir: string;
  let ref: string;
  const auth = async (tenant: number) => ({authorization: `Bearer ${await issuer.mint({sub: `user-${tenant}`, tenant_id: tenant})}`});

  beforeAll(async () => {
    if (database.unavailable) {
      console.warn(`skipping the file column tests on ${database.kind}: ${database.unavailable}`);
      return;
    }
    fixture = await database.createEmpty();
    db = knex(fixture.knexConfig);
    const schema = schemaOf(fixture);
    ref = fixture.provider === 'sqlite' ? 'documents' : `${schema}.documents`;
    await db.schema.createTable('documents', (t) => {
      t.increments('id').primary();
      t.integer('tenant_id').notNullable();
      t.string('file_key', 64);
      t.string('mime', 100);
      t.string('original_name', 300);
    });
    await db.schema.createTable('pages', (t) => {
      t.integer('book_id').notNullable();
      t.integer('page_no').notNullable();
      t.string('scan', 64);
      t.primary(['book_id', 'page_no']);
    });
    storeDir = mkdtempSync(join(home, `store-${database.kind}-`));
    const service = await openGqlService({
      ...settingsFor(fixture, [
        `${schema}.documents { tenant-filter: tenant_id }`,
        `${schema}.pages.scan { file: disk:${storeDir} }`,
        `${schema}.documents.file_key { file: disk:${storeDir}; max-size: 64KB; accept: image/*, application/pdf, text/plain; content-type-column: mime; file-name-column: original_name }`,
      ]),
      disableAuth: false,
      jwt: {authority: issuer.authority, audience: AUDIENCE},
    });
    server = await startGraphqlServer({service, port: 0, playground: {js: '', css: ''}, warn: () => undefined});
  });
  afterAll(async () => {
    await server?.close();
    await db?.destroy();
    await fixture?.drop();
  });

  /** A multipart request as the spec has it: operations, map, then the file parts. */
  async function upload(options: {tenant?: number; bytes: Uint8Array<ArrayBuffer>; name?: string; type?: string; query?: string; headers?: Record<string, string>}) {
    const form = new FormData();
    form.append('operations', JSON.stringify({query: options.query ?? INSERT, variables: {f: null}}));
    form.append('map', JSON.stringify({0: ['variables.f']}));
    form.append('0', new Blob([options.bytes], {type: options.type ?? 'application/octet-stream'}), options.name ?? 'upload.bin');
    return fetch(`${server.url}/graphql`, {method: 'POST', body: form, headers: {accept: 'application/json', ...(await auth(options.tenant ?? 1)), ...options.headers}});
  }
  const download = async (id: unknown, tenant = 1, headers: Record<string, string> = {}) =>
    fetch(`${server.url}/graphql/files/documents/file_key/${String(id)}`, {headers: {...(await auth(tenant)), ...headers}});
  /** Files in the storage, temp files included. */
  const stored = () => [
    ...readdirSync(storeDir).filter((name) => name !== '.tmp'),
    ...readdirSync(storeDir)
      .filter((name) => name === '.tmp')
      .flatMap(() => readdirSync(join(storeDir, '.tmp'))),
  ];
  const rowCount = async () => Number(((await db(ref).count({n: '*'})) as Array<{n: number | string}>)[0]!.n);

  maybe('an upload streams to the storage, the row holds its key, type and name, and the download gives the same bytes', async () => {
    const bytes = png(40_000);
    const answer = await upload({bytes, name: 'photo.png', type: 'image/png'});
    expect(answer.status).toBe(200);
    const body = (await answer.json()) as {data: {documents: number}};
    const id = body.data.documents;
    const row = await db(ref).where({id}).first();
    expect(row).toMatchObject({tenant_id: 1, mime: 'image/png', original_name: 'photo.png'});
    expect(row.file_key).toMatch(/^[0-9a-f]{32}$/);
    expect(readdirSync(storeDir)).toContain(row.file_key);

    const got = await download(id);
    expect(got.status).toBe(200);
    expect(got.headers.get('content-type')).toBe('image/png');
    expect(got.headers.get('content-length')).toBe('40000');
    expect(got.headers.get('accept-ranges')).toBe('bytes');
    expect(got.headers.get('x-content-type-options')).toBe('nosniff');
    expect(got.headers.get('content-disposition')).toBe(`attachment; filename="photo.png"; filename*=UTF-8''photo.png`);
    expect(Buffer.from(await got.arrayBuffer()).equals(Buffer.from(bytes))).toBe(true);

    // The GraphQL read of the column is the storage key.
    const read = await fetch(`${server.url}/graphql`, {
      method: 'POST',
      headers: {'content-type': 'application/json', accept: 'application/json', ...(await auth(1))},
      body: JSON.stringify({query: `{ documents(filter: {id: {_eq: ${id}}}) { data { file_key } } }`}),
    });
    expect(((await read.json()) as {data: {documents: {data: Array<{file_key: string}>}}}).data.documents.data[0]!.file_key).toBe(row.file_key);

    // Ranges: one range is 206 with its slice, a range past the end 416, a matching ETag 304.
    const ranged = await download(id, 1, {range: 'bytes=100-199'});
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get('content-range')).toBe('bytes 100-199/40000');
    expect(Buffer.from(await ranged.arrayBuffer()).equals(Buffer.from(bytes.subarray(100, 200)))).toBe(true);
    const suffix = await download(id, 1, {range: 'bytes=-10'});
    expect(Buffer.from(await suffix.arrayBuffer()).equals(Buffer.from(bytes.subarray(39_990)))).toBe(true);
    const past = await download(id, 1, {range: 'bytes=40000-'});
    expect(past.status).toBe(416);
    expect(past.headers.get('content-range')).toBe('bytes */40000');
    const again = await download(id, 1, {'if-none-match': got.headers.get('etag')!});
    expect(again.status).toBe(304);
    const head = await fetch(`${server.url}/graphql/files/documents/file_key/${id}`, {method: 'HEAD', headers: await auth(1)});
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe('40000');
    expect(await head.text()).toBe('');
  });

  maybe('another tenant gets a 404 for the file, as for a row that does not exist', async () => {
    const id = ((await (await upload({bytes: png(1000), name: 'mine.png'})).json()) as {data: {documents: number}}).data.documents;
    expect((await download(id, 1)).status).toBe(200);
    const theirs = await download(id, 2);
    expect(theirs.status).toBe(404);
    expect(((await theirs.json()) as {error: {code: string}}).error.code).toBe('not_found');
    expect((await download(999_999, 1)).status).toBe(404);
    expect((await download('not-a-number', 1)).status).toBe(404);
  });

  maybe('one byte over max-size is refused (413), leaving no file in the storage and no row', async () => {
    const before = {files: stored().length, rows: await rowCount()};
    const answer = await upload({bytes: png(MAX_SIZE + 1), name: 'big.png'});
    expect(answer.status).toBe(413);
    expect(((await answer.json()) as {errors: Array<{message: string}>}).errors[0]!.message).toMatch(/larger than this column's max-size of 65536 bytes/);
    expect(stored().length).toBe(before.files);
    expect(await rowCount()).toBe(before.rows);
    // Exactly max-size passes.
    expect((await upload({bytes: png(MAX_SIZE), name: 'fits.png'})).status).toBe(200);
  });

  maybe('the type is sniffed from the bytes: a zip declared image/png is refused (415), text passes as text/plain, unknown binary is refused', async () => {
    const before = {files: stored().length, rows: await rowCount()};
    const lying = await upload({bytes: zip(), name: 'cat.png', type: 'image/png'});
    expect(lying.status).toBe(415);
    expect(((await lying.json()) as {errors: Array<{message: string}>}).errors[0]!.message).toBe(
      'the file is application/zip (declared image/png), which this column does not accept (accept: image/*, application/pdf, text/plain)',
    );
    const binary = await upload({bytes: new Uint8Array([0, 1, 2, 3, 0xff, 0xfe, 0, 9]), name: 'x.png', type: 'image/png'});
    expect(binary.status).toBe(415);
    expect(stored().length).toBe(before.files);
    expect(await rowCount()).toBe(before.rows);

    const text = await upload({bytes: new TextEncoder().encode('héllo, wörld\n'.repeat(500)), name: 'notes.txt', type: 'application/pdf'});
    expect(text.status).toBe(200);
    const id = ((await text.json()) as {data: {documents: number}}).data.documents;
    expect((await db(ref).where({id}).first()).mime).toBe('text/plain');
  });

  maybe('client file names are display names only: traversal and control characters sanitised, the storage key random', async () => {
    const cases: Array<[string, string]> = [
      ['../../etc/passwd', '.._.._etc_passwd'],
      ['a/b.png', 'a_b.png'],
      ['..\\..\\boot.ini', '.._.._boot.ini'],
      ['bell\u0007tab\tname.png', 'belltabname.png'],
      ['résumé 📄.png', 'résumé 📄.png'],
    ];
    for (const [name, shown] of cases) {
      const answer = await upload({bytes: png(500), name});
      expect(answer.status).toBe(200);
      const id = ((await answer.json()) as {data: {documents: number}}).data.documents;
      const row = await db(ref).where({id}).first();
      expect(row.original_name).toBe(shown);
      expect(row.file_key).toMatch(/^[0-9a-f]{32}$/);
      const got = await download(id);
      const disposition = got.headers.get('content-disposition')!;
      expect(disposition).toContain(`filename*=UTF-8''${encodeURIComponent(shown).replace(/['()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`)}`);
      expect(disposition).not.toMatch(/[/\\]/);
    }
    expect(stored().every((name) => /^[0-9a-f]{32}$/.test(name))).toBe(true);
  });

  maybe('a mutation that fails leaves no file: the upload is discarded when the row is not written', async () => {
    const before = {files: stored().length, rows: await rowCount()};
    // A user without the tenant claim: the file streams in, then the insert is refused.
    const form = new FormData();
    form.append('operations', JSON.stringify({query: INSERT, variables: {f: null}}));
    form.append('map', JSON.stringify({0: ['variables.f']}));
    form.append('0', new Blob([png(800)]), 'a.png');
    const answer = await fetch(`${server.url}/graphql`, {
      method: 'POST',
      body: form,
      headers: {accept: 'application/json', authorization: `Bearer ${await issuer.mint({sub: 'nobody'})}`},
    });
    const body = (await answer.json()) as {data?: unknown; errors?: Array<{message: string}>};
    expect(body.errors?.[0]?.message).toMatch(/tenant_id/);
    expect(stored().length).toBe(before.files);
    expect(await rowCount()).toBe(before.rows);
  });

  maybe('a batch carries two files mapped into an input variable; a file replaced by an update is served new', async () => {
    const form = new FormData();
    const query = 'mutation($actions: [batch_documents!]!) { documents_batch(actions: $actions) }';
    form.append('operations', JSON.stringify({query, variables: {actions: [{insert: {file_key: null}}, {insert: {file_key: null}}]}}));
    form.append('map', JSON.stringify({a: ['variables.actions.0.insert.file_key'], b: ['variables.actions.1.insert.file_key']}));
    form.append('a', new Blob([png(700)]), 'first.png');
    form.append('b', new Blob([new TextEncoder().encode('second file')]), 'second.txt');
    const answer = await fetch(`${server.url}/graphql`, {method: 'POST', body: form, headers: {accept: 'application/json', ...(await auth(1))}});
    expect(((await answer.json()) as {data: {documents_batch: number}}).data.documents_batch).toBe(2);
    const rows = (await db(ref).whereIn('original_name', ['first.png', 'second.txt']).orderBy('id')) as Array<{id: number; mime: string; file_key: string}>;
    expect(rows.map((row) => row.mime)).toEqual(['image/png', 'text/plain']);
    expect(new Set(rows.map((row) => row.file_key)).size).toBe(2);

    const update = new FormData();
    update.append('operations', JSON.stringify({query: `mutation($f: Upload) { documents(update: {id: ${rows[0]!.id}, file_key: $f}) }`, variables: {f: null}}));
    update.append('map', JSON.stringify({0: ['variables.f']}));
    update.append('0', new Blob([new TextEncoder().encode('now text')]), 'now.txt');
    expect((await fetch(`${server.url}/graphql`, {method: 'POST', body: update, headers: {accept: 'application/json', ...(await auth(1))}})).status).toBe(200);
    const got = await download(rows[0]!.id);
    expect(got.headers.get('content-type')).toBe('text/plain');
    expect(got.headers.get('content-disposition')).toContain('filename="now.txt"');
    expect(await got.text()).toBe('now text');
  });

  maybe('a file replaced, cleared or whose row is deleted leaves the storage; another tenant cannot make it go', async () => {
    const json = async (query: string, tenant = 1) => {
      const answer = await fetch(`${server.url}/graphql`, {
        method: 'POST',
        headers: {'content-type': 'application/json', accept: 'application/json', ...(await auth(tenant))},
        body: JSON.stringify({query}),
      });
      return (await answer.json()) as {data?: Record<string, unknown>; errors?: Array<{message: string}>};
    };
    const keyOf = async (id: number) => ((await db(ref).where({id}).first()) as {file_key: string | null}).file_key;
    const inserted = (await (await upload({bytes: png(900), name: 'one.png'})).json()) as {data: {documents: number}};
    const id = inserted.data.documents;
    const first = (await keyOf(id))!;
    expect(stored()).toContain(first);

    // Another tenant's update reaches no row: the file stays, and their upload is not kept either.
    const files = stored().length;
    const foreign = await upload({tenant: 2, bytes: png(950), name: 'theirs.png', query: `mutation($f: Upload!) { documents(update: {id: ${id}, file_key: $f}) }`});
    expect(foreign.status).toBe(200);
    expect(await keyOf(id)).toBe(first);
    expect(stored()).toContain(first);
    expect(stored().length).toBe(files);

    // Replaced: the old file goes once the new row has committed.
    const replaced = await upload({bytes: png(1000), name: 'two.png', query: `mutation($f: Upload!) { documents(update: {id: ${id}, file_key: $f}) }`});
    expect(((await replaced.json()) as {errors?: unknown}).errors).toBeUndefined();
    const second = (await keyOf(id))!;
    expect(second).not.toBe(first);
    expect(stored()).toContain(second);
    expect(stored()).not.toContain(first);

    // Cleared: the column set to null.
    expect((await json(`mutation { documents(update: {id: ${id}, file_key: null}) }`)).errors).toBeUndefined();
    expect(await keyOf(id)).toBeNull();
    expect(stored()).not.toContain(second);

    // The row deleted (in a batch too).
    const again = (await (await upload({bytes: png(1100), name: 'three.png'})).json()) as {data: {documents: number}};
    const third = (await keyOf(again.data.documents))!;
    expect(stored()).toContain(third);
    expect((await json(`mutation { documents_batch(actions: [{delete: {id: ${again.data.documents}}}]) }`)).errors).toBeUndefined();
    expect(await db(ref).where({id: again.data.documents}).first()).toBeUndefined();
    expect(stored()).not.toContain(third);
  });

  maybe('text that turns out not to be text, and an operations part over the limit, are refused', async () => {
    const before = {files: stored().length, rows: await rowCount()};
    const text = new TextEncoder().encode('plain words '.repeat(1000));
    const tricky = new Uint8Array([...text, 0, 1, 2]);
    const answer = await upload({bytes: tricky, name: 'fake.txt', type: 'text/plain'});
    expect(answer.status).toBe(415);
    expect(((await answer.json()) as {errors: Array<{message: string}>}).errors[0]!.message).toMatch(/looked like text at its start but is not UTF-8 text/);

    const form = new FormData();
    form.append('operations', JSON.stringify({query: INSERT, variables: {f: null, padding: 'x'.repeat(1024 * 1024 + 10)}}));
    form.append('map', JSON.stringify({0: ['variables.f']}));
    form.append('0', new Blob([png(300)]), 'a.png');
    const big = await fetch(`${server.url}/graphql`, {method: 'POST', body: form, headers: {accept: 'application/json', ...(await auth(1))}});
    expect(big.status).toBe(413);
    expect(((await big.json()) as {errors: Array<{message: string}>}).errors[0]!.message).toBe('the operations part is too large');
    expect(stored().length).toBe(before.files);
    expect(await rowCount()).toBe(before.rows);
  });

  maybe('a composite key addresses its file with one path segment per key column, in declared order', async () => {
    const answer = await upload({bytes: png(900), query: 'mutation($f: Upload) { pages(insert: {book_id: 7, page_no: 3, scan: $f}) }'});
    expect(answer.status).toBe(200);
    const got = await fetch(`${server.url}/graphql/files/pages/scan/7/3`, {headers: await auth(1)});
    expect(got.status).toBe(200);
    expect(got.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await got.arrayBuffer()).equals(Buffer.from(png(900)))).toBe(true);
    expect((await fetch(`${server.url}/graphql/files/pages/scan/3/7`, {headers: await auth(1)})).status).toBe(404);
    expect((await fetch(`${server.url}/graphql/files/pages/scan/7`, {headers: await auth(1)})).status).toBe(404);
    expect((await fetch(`${server.url}/graphql/files/pages/book_id/7/3`, {headers: await auth(1)})).status).toBe(404);
  });

  maybe('an upload aborted midway (the socket destroyed) leaves no file and no row', async () => {
    const before = {files: stored().length, rows: await rowCount()};
    const boundary = 'wbboundary1234';
    const head =
      `--${boundary}\r\nContent-Disposition: form-data; name="operations"\r\n\r\n${JSON.stringify({query: INSERT, variables: {f: null}})}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="map"\r\n\r\n${JSON.stringify({0: ['variables.f']})}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="0"; filename="half.png"\r\nContent-Type: image/png\r\n\r\n`;
    const url = new URL(`${server.url}/graphql`);
    const authorization = (await auth(1)).authorization;
    await new Promise<void>((resolve) => {
      const req = httpRequest({
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        headers: {'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(1_000_000), authorization, accept: 'application/json'},
      });
      req.on('error', () => resolve());
      req.write(head);
      req.write(Buffer.from(png(30_000)), () => {
        // Half the file is in: wait until the server has begun writing it, then cut the connection.
        const poll = setInterval(() => {
          if (readdirSync(storeDir).includes('.tmp') && readdirSync(join(storeDir, '.tmp')).length > 0) {
            clearInterval(poll);
            req.destroy();
            resolve();
          }
        }, 10);
      });
    });
    // The server notices the close and removes its temp file.
    for (let tries = 0; tries < 500 && stored().length !== before.files; tries += 1) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(stored().length).toBe(before.files);
    expect(await rowCount()).toBe(before.rows);
  });

  maybe('a cross-site multipart POST is refused before anything is read', async () => {
    const before = {files: stored().length, rows: await rowCount()};
    const foreign = await upload({bytes: png(500), headers: {origin: 'https://evil.example'}});
    expect(foreign.status).toBe(403);
    expect(((await foreign.json()) as {error: {code: string}}).error.code).toBe('cross_site_refused');
    const fetched = await upload({bytes: png(500), headers: {'sec-fetch-site': 'cross-site'}});
    expect(fetched.status).toBe(403);
    expect(stored().length).toBe(before.files);
    expect(await rowCount()).toBe(before.rows);
  });

  maybe('a multipart POST without a valid token is 401 and reads no file', async () => {
    const before = stored().length;
    const form = new FormData();
    form.append('operations', JSON.stringify({query: INSERT, variables: {f: null}}));
    form.append('map', JSON.stringify({0: ['variables.f']}));
    form.append('0', new Blob([png(500)]), 'a.png');
    const answer = await fetch(`${server.url}/graphql`, {method: 'POST', body: form, headers: {accept: 'application/json', authorization: 'Bearer nonsense'}});
    expect(answer.status).toBe(401);
    expect(stored().length).toBe(before);
  });

  maybe('malformed multipart requests are 400 with a clear error', async () => {
    const before = {files: stored().length, rows: await rowCount()};
    const send = async (parts: Array<[string, string | Blob, string?]>) => {
      const form = new FormData();
      for (const [name, value, filename] of parts) {
        if (typeof value === 'string') form.append(name, value);
        else form.append(name, value, filename);
      }
      const answer = await fetch(`${server.url}/graphql`, {method: 'POST', body: form, headers: {accept: 'application/json', ...(await auth(1))}});
      return {status: answer.status, message: ((await answer.json()) as {errors: Array<{message: string}>}).errors[0]!.message};
    };
    const operations = JSON.stringify({query: INSERT, variables: {f: null}});
    const file = new Blob([png(300)], {type: 'image/png'});
    expect(await send([['operations', operations]])).toEqual({
      status: 400,
      message: 'the multipart request has no map part (GraphQL multipart request spec: operations, map, files)',
    });
    expect(
      await send([
        ['operations', operations],
        ['0', file, 'a.png'],
      ]),
    ).toEqual({
      status: 400,
      message: 'the file part "0" came before map: send operations, then map, then the files',
    });
    expect(
      await send([
        ['operations', operations],
        ['map', JSON.stringify({0: ['variables.f'], 1: ['variables.g']})],
        ['0', file, 'a.png'],
      ]),
    ).toMatchObject({status: 400, message: expect.stringMatching(/"variables.g" is not a variable/)});
    expect(
      await send([
        ['operations', operations],
        ['map', JSON.stringify({0: ['variables.f']})],
      ]),
    ).toEqual({
      status: 400,
      message: 'map names the file part "0", which the request does not carry',
    });
    expect(
      await send([
        ['operations', '{"query": "mutation'],
        ['map', '{}'],
      ]),
    ).toMatchObject({status: 400, message: expect.stringMatching(/^the operations part is not valid JSON/)});
    expect(
      await send([
        ['operations', operations],
        ['map', 'not json'],
      ]),
    ).toMatchObject({status: 400, message: expect.stringMatching(/^the map part is not valid JSON/)});
    expect(
      await send([
        ['operations', '[]'],
        ['map', '{}'],
      ]),
    ).toEqual({status: 400, message: 'operations is a batch (an array): send one operation per request'});
    expect(
      await send([
        ['operations', operations],
        ['map', JSON.stringify({0: ['variables.f']})],
        ['1', file, 'b.png'],
      ]),
    ).toEqual({status: 400, message: 'the file part "1" is not named in map'});
    const many = Object.fromEntries(Array.from({length: 11}, (_, index) => [String(index), [`variables.f${index}`]]));
    expect(
      await send([
        ['operations', operations],
        ['map', JSON.stringify(many)],
      ]),
    ).toEqual({status: 413, message: 'map names 11 files: at most 10 in one request'});
    expect(stored().length).toBe(before.files);
    expect(await rowCount()).toBe(before.rows);
  });
});
