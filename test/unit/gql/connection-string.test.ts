// Connection strings in the spec's key=value; shapes, per provider, to knex configs.
import {describe, expect, it} from 'vitest';
import {parseConnectionString} from '../../../source/gql/settings/connection-string.js';

describe('parseConnectionString', () => {
  it('reads a SQLite Data Source', () => {
    const info = parseConnectionString('sqlite', 'Data Source=/tmp/x.sqlite');
    expect(info.knex).toEqual({client: 'better-sqlite3', connection: {filename: '/tmp/x.sqlite'}, useNullAsDefault: true});
    expect(info.warnings).toEqual([]);
  });

  it('reads the postgres keys, case-insensitive, with aliases', () => {
    const info = parseConnectionString('postgres', 'host=db.local; PORT=5433; Database=test; User Id=postgres; Password=s3cret;');
    expect(info.knex).toEqual({client: 'pg', connection: {host: 'db.local', port: 5433, database: 'test', user: 'postgres', password: 's3cret'}});
    expect(info.redacted).toBe('host=db.local;PORT=5433;Database=test;User Id=postgres;Password=***');
  });

  it('reads the mysql keys with the default port', () => {
    const info = parseConnectionString('mysql', 'Server=127.0.0.1;Database=test;User=root;Password=');
    expect(info.knex).toEqual({client: 'mysql2', connection: {host: '127.0.0.1', port: 3306, database: 'test', user: 'root', password: ''}});
  });

  it('keeps quoted values whole, doubled quotes included', () => {
    const info = parseConnectionString('postgres', `Host=h;Database=d;Username=u;Password="a;b=""c"""`);
    expect((info.knex.connection as {password: string}).password).toBe('a;b="c"');
    expect(info.redacted).not.toContain('a;b');
  });

  it('encrypts SQL Server connections and validates the certificate by default', () => {
    const info = parseConnectionString('sqlserver', 'Server=tcp:sql.local,1444;Database=app;User Id=sa;Password=x');
    expect(info.knex.client).toBe('mssql');
    expect(info.knex.connection).toMatchObject({server: 'sql.local', port: 1444, database: 'app', user: 'sa', options: {encrypt: true, trustServerCertificate: false}});
    expect(info.warnings).toEqual([]);
  });

  it('trusts the server certificate only with TrustServerCertificate=True, and warns while it does', () => {
    const info = parseConnectionString('sqlserver', 'Server=sql;Database=app;User Id=sa;Password=x;TrustServerCertificate=True');
    expect(info.knex.connection).toMatchObject({options: {encrypt: true, trustServerCertificate: true}});
    expect(info.warnings.join('\n')).toMatch(/accepted without any check.*read credentials and queries/s);
    expect(parseConnectionString('sqlserver', 'Server=sql;Database=app;TrustServerCertificate=False').knex.connection).toMatchObject({options: {trustServerCertificate: false}});
  });

  it('warns about keys the provider does not read instead of dropping them silently', () => {
    expect(parseConnectionString('postgres', 'Host=h;Database=d;Pooling=true').warnings).toEqual([expect.stringMatching(/"Pooling" is not used/)]);
  });

  it.each([
    ['postgres', 'Database=d', /has no Host/],
    ['postgres', 'Host=h', /has no Database/],
    ['sqlite', 'Mode=ro', /has no Data Source/],
    ['postgres', 'Host=h;Database=d;Port=abc', /Port must be a number/],
    ['postgres', 'Host=h;Database=d;Password="open', /no closing "/],
    ['postgres', 'Host;Database=d', /has no "="/],
    ['postgres', 'Host=a;Server=b;Database=d', /gives host twice/],
    ['sqlserver', 'Server=s;Database=d;TrustServerCertificate=perhaps', /TrustServerCertificate must be True or False/],
  ] as const)('refuses %s %j', (provider, text, message) => {
    expect(() => parseConnectionString(provider, text)).toThrow(expect.objectContaining({code: 'config_invalid', message: expect.stringMatching(message)}));
  });
});
