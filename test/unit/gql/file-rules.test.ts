// The file keys at model load: what a valid model carries on its file columns, and every failure
// named with its rule. Also the pure parts of uploads and downloads: names, ranges, storages.
import {mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {Readable} from 'node:stream';
import {describe, expect, it} from 'vitest';
import {attachmentDisposition, displayName} from '../../../source/gql/files/file-name.js';
import {parseRange} from '../../../source/gql/files/download.js';
import {StagedFile} from '../../../source/gql/files/staged-file.js';
import {diskStorage} from '../../../source/gql/files/storage/disk-storage.js';
import {accepted, parseByteSize, parseStorageConfig} from '../../../source/gql/files/storage-config.js';
import {modelFrom} from '../../../source/gql/load-model.js';
import type {DbModel} from '../../../source/gql/types.js';
import {column, table} from './chinook-db-model.js';

function db(): DbModel {
  return {
    provider: 'sqlite',
    defaultSchema: 'main',
    procedures: [],
    tables: [
      table(
        'documents',
        [column('id', 'int'), column('tenant_id', 'int'), column('file_key'), column('scan'), column('mime'), column('original_name'), column('pages', 'int')],
        ['id'],
      ),
      table('notes', [column('id', 'int'), column('body')], ['id']),
    ],
  };
}

function problems(...rules: string[]): string {
  const result = modelFrom(db(), rules);
  expect(result.problems.length).toBeGreaterThan(0);
  return result.problems.map((problem) => `${problem.message} [${problem.rule ?? ''}]`).join('\n');
}

const fileOf = (rules: string[], name = 'file_key') => {
  const result = modelFrom(db(), rules);
  expect(result.problems).toEqual([]);
  return result.model.byKey.get('main.documents')!.columns.find((item) => item.dbName === name)!.file;
};

describe('file keys at model load', () => {
  it('a valid file column: storage, size, accepted types and its companion columns', () => {
    expect(
      fileOf([
        'main.documents.file_key { file: true; storage: disk:/srv/files; max-size: 10MB; accept: image/*, Application/PDF; content-type-column: MIME; file-name-column: original_name }',
      ]),
    ).toEqual({
      storage: {kind: 'disk', dir: '/srv/files'},
      maxSize: 10 * 1024 * 1024,
      accept: ['image/*', 'application/pdf'],
      contentTypeColumn: 'mime',
      fileNameColumn: 'original_name',
    });
    // Defaults: disk under WORKBENCH_HOME, 100 MiB, any type; no other column is a file column.
    expect(fileOf(['main.documents.file_key { file: true }'])).toEqual({storage: {kind: 'disk'}, maxSize: 100 * 1024 * 1024});
    expect(
      modelFrom(db(), ['main.documents.file_key { file: true }'])
        .model.byKey.get('main.documents')!
        .columns.find((item) => item.dbName === 'scan')!.file,
    ).toBeUndefined();
  });

  it('storage: the nearest wins (column, table, model), and file may name one itself', () => {
    const root = ':root { storage: s3://model-bucket/all }';
    const tableRule = 'main.documents { storage: disk:tables }';
    expect(fileOf([root, 'main.documents.file_key { file: true }'])?.storage).toEqual({kind: 's3', bucket: 'model-bucket', prefix: 'all', pathStyle: false});
    expect(fileOf([root, tableRule, 'main.documents.file_key { file: true }'])?.storage).toEqual({kind: 'disk', dir: 'tables'});
    expect(fileOf([root, tableRule, 'main.documents.file_key { file: true; storage: disk }'])?.storage).toEqual({kind: 'disk'});
    expect(fileOf([root, 'main.documents.file_key { file: s3://docs/scans?endpoint=http://127.0.0.1:9000&region=eu-west-1&path-style=true }'])?.storage).toEqual({
      kind: 's3',
      bucket: 'docs',
      prefix: 'scans',
      endpoint: 'http://127.0.0.1:9000',
      region: 'eu-west-1',
      pathStyle: true,
    });
    // Upstream's bucket config spelling (in backticks: it holds `;`).
    expect(fileOf(['main.documents { storage: `bucket:uploads;provider:local;prefix:avatars/big` }', 'main.documents.file_key { file: true }'])?.storage).toEqual({
      kind: 'disk',
      dir: 'gql-files/uploads/avatars/big',
    });
    expect(
      fileOf(['main.documents.file_key { file: true; storage: `bucket:docs;provider:s3;prefix:scans;endpoint:http://127.0.0.1:9000;pathstyle:true;region:eu-west-1` }'])?.storage,
    ).toEqual({
      kind: 's3',
      bucket: 'docs',
      prefix: 'scans',
      endpoint: 'http://127.0.0.1:9000',
      region: 'eu-west-1',
      pathStyle: true,
    });
    // The legacy marker reads the same.
    expect(fileOf(['main.documents.file_key { file-storage: true; max-size: 512 }'])).toEqual({storage: {kind: 'disk'}, maxSize: 512});
  });

  it('file on a column that is not a string, or on the key', () => {
    expect(problems('main.documents.pages { file: true }')).toBe(
      'main.documents.pages: file: "true": pages is a integer column: a file column holds the storage key, so it must be a string (text/varchar) column [main.documents.pages { file: true }]',
    );
    expect(problems('main.notes.id { file: true }')).toMatch(/main\.notes\.id: file: "true": id is a integer column/);
  });

  it('storage strings that are not storages', () => {
    const rule = (value: string) => `main.documents.file_key { file: true; storage: ${value} }`;
    expect(problems(rule('ftp://x'))).toMatch(/storage: "ftp:\/\/x": is not a storage: write disk, disk:<dir> or s3:\/\/<bucket>/);
    expect(problems(rule('disk:'))).toMatch(/disk: needs a directory after the colon/);
    expect(problems(rule('s3://Bad_Bucket'))).toMatch(/bucket "Bad_Bucket" is not an S3 bucket name \(3-63 of a-z 0-9 . -\)/);
    expect(problems(rule('s3://docs?endpoint=http://127.0.0.1:9000&secret=x'))).toMatch(/unknown setting secret: s3:\/\/ takes endpoint, region, path-style/);
    expect(problems(rule('s3://docs?endpoint=ftp://host'))).toMatch(/endpoint must be http:\/\/ or https:\/\//);
    expect(problems(rule('s3://docs?path-style=maybe'))).toMatch(/path-style must be true or false/);
    expect(problems(rule('s3://key:secret@docs'))).toMatch(/holds credentials: they come from AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY/);
    expect(problems(rule('s3://docs?endpoint=http://key:secret@127.0.0.1:9000'))).toMatch(/endpoint holds credentials/);
    expect(problems(rule('`bucket:x;provider:ftp`'))).toMatch(/provider ftp is not one: local or s3/);
    expect(problems(rule('`bucket:x;colour:blue`'))).toMatch(/unknown setting colour: a bucket config takes bucket, provider, prefix, region, endpoint, pathstyle/);
    expect(problems(rule('`bucket:x;maxsize:10`'))).toMatch(/maxsize is not taken here: write max-size on the file column/);
    expect(problems(rule('`provider:local`'))).toMatch(/names no bucket/);
    expect(problems(rule('`bucket:..;provider:local`'))).toMatch(/bucket "\.\." is not a directory name/);
    expect(problems(rule('`bucket:x;provider:local;endpoint:http://h`'))).toMatch(/endpoint applies to provider s3, not local/);
    expect(problems(':root { storage: nowhere }')).toMatch(/^:root: storage: "nowhere": is not a storage/);
    expect(problems('main.documents.file_key { file: sometimes }')).toMatch(/file: "sometimes": must be true or a storage \(is not a storage/);
    expect(problems('main.documents.file_key { file: disk:a; storage: disk:b }')).toMatch(/names a storage and so does storage on the same column: keep one/);
  });

  it('max-size: a positive number of bytes, with KB/MB/GB', () => {
    const rule = (value: string) => `main.documents.file_key { file: true; max-size: ${value} }`;
    expect(fileOf([rule('64KB')])?.maxSize).toBe(65536);
    expect(fileOf([rule('1.5 MiB')])?.maxSize).toBe(1572864);
    expect(fileOf([rule('2gb')])?.maxSize).toBe(2 * 1024 ** 3);
    for (const bad of ['0', '-5', 'ten', '10 parsecs', '0.1'])
      expect(problems(rule(bad)), bad).toMatch(/max-size: ".*": must be (a positive number of bytes|a number of bytes, or one with KB, MB or GB \(10MB\))/);
  });

  it('accept: MIME patterns only', () => {
    const rule = (value: string) => `main.documents.file_key { file: true; accept: ${value} }`;
    expect(problems(rule('images'))).toMatch(/accept: "images": "images" is not a MIME pattern \(type\/subtype or type\/\*\)/);
    expect(problems(rule('image/*, */png'))).toMatch(/"\*\/png" is not a MIME pattern/);
    expect(problems(rule(','))).toMatch(/names no type/);
  });

  it('content-type-column and file-name-column: a writable string column of the same table', () => {
    const rule = (key: string, value: string) => `main.documents.file_key { file: true; ${key}: ${value} }`;
    expect(problems(rule('content-type-column', 'nope'))).toMatch(/content-type-column: "nope": main\.documents has no column nope/);
    expect(problems(rule('file-name-column', 'pages'))).toMatch(/file-name-column: "pages": pages is a integer column, not a string column/);
    expect(problems(rule('file-name-column', 'file_key'))).toMatch(/names the file column itself/);
    expect(problems('main.documents.mime { visibility: hidden }', rule('content-type-column', 'mime'))).toMatch(/mime is hidden, so an upload cannot write it/);
  });

  it('file keys where there is no file column: on a table, on the model, or on a column without file', () => {
    expect(problems('main.documents { max-size: 10MB }')).toMatch(/^main\.documents: max-size: "10MB": applies to a column, not to a table/);
    expect(problems(':root { accept: image/* }')).toMatch(/^:root: accept: "image\/\*": applies to a column, not to the model \(:root\)/);
    expect(problems('main.documents.scan { accept: image/* }')).toMatch(/main\.documents\.scan: accept: "image\/\*": needs file on the same column/);
    expect(problems('main.documents.scan { storage: disk }')).toMatch(/storage: "disk": needs file on the same column/);
    expect(problems('main.documents.file_key { file: true; file-storage: true }')).toMatch(/file-storage: "true": is the legacy spelling of file: write one of them/);
  });
});

describe('upload and download helpers', () => {
  it('display names never carry a path or a control character', () => {
    expect(displayName('../../etc/passwd')).toBe('.._.._etc_passwd');
    expect(displayName('a\u0000b\u001fc\u007f.txt')).toBe('abc.txt');
    expect(displayName('..')).toBe('file');
    expect(displayName(undefined)).toBe('file');
    expect(displayName('x'.repeat(300))).toHaveLength(255);
    expect(attachmentDisposition('rapport "final" é.pdf')).toBe(`attachment; filename="rapport _final_ _.pdf"; filename*=UTF-8''rapport%20%22final%22%20%C3%A9.pdf`);
  });

  it('byte ranges: one range, a suffix, an open end; past the end unsatisfiable; several ignored', () => {
    expect(parseRange('bytes=0-9', 100)).toEqual({start: 0, end: 9});
    expect(parseRange('bytes=90-', 100)).toEqual({start: 90, end: 99});
    expect(parseRange('bytes=-5', 100)).toEqual({start: 95, end: 99});
    expect(parseRange('bytes=50-500', 100)).toEqual({start: 50, end: 99});
    expect(parseRange('bytes=100-', 100)).toBe('unsatisfiable');
    expect(parseRange('bytes=9-3', 100)).toBe('unsatisfiable');
    expect(parseRange('bytes=0-1,5-6', 100)).toBeUndefined();
    expect(parseRange('items=0-1', 100)).toBeUndefined();
  });

  it('accept patterns and sizes', () => {
    expect(accepted(['image/*'], 'image/png')).toBe(true);
    expect(accepted(['image/*'], 'application/zip')).toBe(false);
    expect(accepted(undefined, 'application/zip')).toBe(true);
    expect(parseByteSize('10MB')).toBe(10485760);
    expect(parseStorageConfig('disk')).toEqual({kind: 'disk'});
  });
});

describe('a staged file', () => {
  it('is discarded when the request ends unless a mutation claimed it; the claiming mutation commits it even after the client left', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wb-staged-'));
    try {
      const storage = diskStorage(dir);
      const model = modelFrom(db(), ['main.documents.file_key { file: true }']).model;
      const table = model.byKey.get('main.documents')!;
      const column = table.columns.find((item) => item.dbName === 'file_key') as ConstructorParameters<typeof StagedFile>[1];
      const stage = async (key: string) =>
        new StagedFile(table, column, storage, key, 'text/plain', 'a.txt', 2, await storage.put(key, Readable.from([Buffer.from('hi')]), 'text/plain'));
      const unclaimed = await stage('a'.repeat(32));
      const claimed = await stage('b'.repeat(32));
      expect(readdirSync(join(dir, '.tmp'))).toHaveLength(2);
      claimed.claim();
      await unclaimed.abandon();
      await claimed.abandon();
      expect(readdirSync(join(dir, '.tmp'))).toHaveLength(1);
      await claimed.commit();
      expect(readdirSync(dir).sort()).toEqual(['.tmp', 'b'.repeat(32)]);
      expect(readdirSync(join(dir, '.tmp'))).toEqual([]);
    } finally {
      rmSync(dir, {recursive: true, force: true});
    }
  });
});

describe('the disk storage', () => {
  it('reads a key as a file of its own directory, never as a path (a column another program wrote)', async () => {
    const root = mkdtempSync(join(tmpdir(), 'wb-disk-'));
    try {
      const dir = join(root, 'files');
      mkdirSync(dir);
      writeFileSync(join(root, 'secret.txt'), 'not yours');
      const storage = diskStorage(dir);
      for (const key of ['../secret.txt', '..', '.tmp', 'a/b', '/etc/passwd', '']) {
        expect(await storage.stat(key), key).toBeUndefined();
        await expect(storage.read(key), key).rejects.toThrow(/not a storage key/);
        await expect(storage.put(key, Readable.from([Buffer.from('x')]), 'text/plain'), key).rejects.toThrow(/not a storage key/);
        await storage.delete(key);
      }
      expect(readFileSync(join(root, 'secret.txt'), 'utf8')).toBe('not yours');
      const pending = await storage.put('c'.repeat(32), Readable.from([Buffer.from('ok')]), 'text/plain');
      await pending.commit();
      expect(await storage.stat('c'.repeat(32))).toEqual({size: 2});
    } finally {
      rmSync(root, {recursive: true, force: true});
    }
  });
});
