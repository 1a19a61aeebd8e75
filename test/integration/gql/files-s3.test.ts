// File columns stored in an S3-compatible bucket: the real server and the real AWS SDK
// (lib-storage's Upload) against the S3 stand-in on 127.0.0.1, which speaks S3's REST wire
// format. The database is SQLite: the storage is what is under test here.
import {mkdtempSync, rmSync} from 'node:fs';
import {createServer, type AddressInfo} from 'node:net';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import knex, {type Knex} from 'knex';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {startS3StandIn, type S3StandIn} from '../../../fixtures/s3-stand-in/server.js';
import {startGraphqlServer, type GraphqlServer} from '../../../servers/graphql/index.js';
import {openGqlService} from '../../../source/gql/service.js';
import {gqlDatabases, settingsFor, type GqlFixture} from '../../helpers/gql-databases.js';
import {testPng} from '../../helpers/test-png.js';

const sqlite = (await gqlDatabases()).find((database) => database.kind === 'sqlite')!;
const ENV = ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'WORKBENCH_HOME', 'AWS_CONFIG_FILE', 'AWS_SHARED_CREDENTIALS_FILE', 'AWS_PROFILE'] as const;
const saved = Object.fromEntries(ENV.map((name) => [name, process.env[name]]));

let home: string;
let s3: S3StandIn;
let fixture: GqlFixture;
let db: Knex;
let server: GraphqlServer;

const png = testPng;

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'wb-gql-files-s3-'));
  Object.assign(process.env, {
    WORKBENCH_HOME: home,
    AWS_ACCESS_KEY_ID: 'test-key-id',
    AWS_SECRET_ACCESS_KEY: 'test-secret',
    // The SDK reads these files too: none of the machine's own.
    AWS_CONFIG_FILE: join(home, 'aws-config'),
    AWS_SHARED_CREDENTIALS_FILE: join(home, 'aws-credentials'),
  });
  delete process.env.AWS_PROFILE;
  s3 = await startS3StandIn();
  fixture = await sqlite.createEmpty();
  db = knex(fixture.knexConfig);
  await db.schema.createTable('documents', (t) => {
    t.increments('id').primary();
    t.string('file_key', 64);
    t.string('mime', 100);
    t.string('elsewhere', 64);
  });
  // A storage nobody answers at: a port just freed.
  const dead = await new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const {port} = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
  const service = await openGqlService(
    settingsFor(fixture, [
      `:root { storage: s3://wb-files/uploads?endpoint=${s3.url}&region=us-east-1&path-style=true }`,
      'main.documents.file_key { file: true; max-size: 20MB; accept: image/*; content-type-column: mime }',
      `main.documents.elsewhere { file: s3://wb-files/away?endpoint=http://127.0.0.1:${dead}&path-style=true }`,
    ]),
  );
  server = await startGraphqlServer({service, port: 0, playground: {js: '', css: ''}, warn: () => undefined});
});

afterAll(async () => {
  await server?.close();
  await db?.destroy();
  await fixture?.drop();
  await s3?.close();
  for (const name of ENV) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
  rmSync(home, {recursive: true, force: true});
});

async function upload(bytes: Uint8Array<ArrayBuffer>, query = 'mutation($f: Upload!) { documents(insert: {file_key: $f}) }') {
  const form = new FormData();
  form.append('operations', JSON.stringify({query, variables: {f: null}}));
  form.append('map', JSON.stringify({0: ['variables.f']}));
  form.append('0', new Blob([bytes], {type: 'image/png'}), 'picture.png');
  const answer = await fetch(`${server.url}/graphql`, {method: 'POST', body: form, headers: {accept: 'application/json'}});
  return {status: answer.status, body: (await answer.json()) as {data?: {documents?: number}; errors?: Array<{message: string}>}};
}

describe('file columns in an S3-compatible bucket', () => {
  it('a small file goes up in one PutObject, a large one as a multipart upload; both download whole and by range', async () => {
    const small = png(2000);
    const large = png(12 * 1024 * 1024 + 123);
    const ids: number[] = [];
    for (const bytes of [small, large]) {
      const answer = await upload(bytes);
      expect(answer.status).toBe(200);
      ids.push(answer.body.data!.documents!);
    }
    const rows = (await db('documents').orderBy('id')) as Array<{id: number; file_key: string; mime: string}>;
    expect(rows.map((row) => row.mime)).toEqual(['image/png', 'image/png']);
    for (const row of rows) {
      const object = s3.objects.get(`wb-files/uploads/${row.file_key}`);
      expect(object?.contentType).toBe('image/png');
    }
    expect(s3.objects.get(`wb-files/uploads/${rows[1]!.file_key}`)!.body.equals(Buffer.from(large))).toBe(true);
    const operations = s3.requests.map((request) => request.operation);
    expect(operations).toContain('PutObject');
    expect(operations).toContain('CreateMultipartUpload');
    expect(operations.filter((operation) => operation === 'UploadPart').length).toBeGreaterThanOrEqual(3);
    expect(operations).toContain('CompleteMultipartUpload');

    const whole = await fetch(`${server.url}/graphql/files/documents/file_key/${ids[1]}`);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-length')).toBe(String(large.length));
    expect(Buffer.from(await whole.arrayBuffer()).equals(Buffer.from(large))).toBe(true);
    const part = await fetch(`${server.url}/graphql/files/documents/file_key/${ids[0]}`, {headers: {range: 'bytes=10-19'}});
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe('bytes 10-19/2000');
    expect(Buffer.from(await part.arrayBuffer()).equals(Buffer.from(small.subarray(10, 20)))).toBe(true);
  });

  it('a mutation that fails deletes the object it uploaded; a refused file leaves none', async () => {
    const before = s3.objects.size;
    // `documents` takes one argument per call: the file streams up, the mutation is refused, the object goes.
    const failed = await upload(png(3000), 'mutation($f: Upload!) { documents(insert: {file_key: $f}, upsert: {id: 1}) }');
    expect(failed.body.errors?.[0]?.message).toMatch(/takes exactly one of/);
    expect(s3.objects.size).toBe(before);
    expect(s3.requests.at(-1)?.operation).toBe('DeleteObject');
    const tooBig = await upload(png(20 * 1024 * 1024 + 1));
    expect(tooBig.status).toBe(413);
    expect(s3.objects.size).toBe(before);
    expect(s3.uploads.size).toBe(0);
  });

  it('a storage that cannot be reached is a 503 naming it, without credentials, and no row', async () => {
    const rows = Number(((await db('documents').count({n: '*'})) as Array<{n: number}>)[0]!.n);
    const answer = await upload(png(1000), 'mutation($f: Upload!) { documents(insert: {elsewhere: $f}) }');
    expect(answer.status).toBe(503);
    const message = answer.body.errors?.[0]?.message ?? '';
    expect(message).toMatch(/^the file storage \(s3 wb-files\/away at http:\/\/127\.0\.0\.1:\d+\) failed: /);
    expect(message).not.toContain('test-secret');
    expect(message).not.toContain('test-key-id');
    expect(Number(((await db('documents').count({n: '*'})) as Array<{n: number}>)[0]!.n)).toBe(rows);
  });

  it('the stand-in refuses a request without a SigV4 signature, as S3 does', async () => {
    const answer = await fetch(`${s3.url}/wb-files/uploads/x`, {method: 'PUT', body: 'x'});
    expect(answer.status).toBe(403);
    expect(await answer.text()).toContain('<Code>AccessDenied</Code>');
  });
});
