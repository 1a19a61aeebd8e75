// GraphQL service settings (spec 3, "Settings"): the JSON file's sections, .NET-style environment
// overrides, the defaults with and without a file, and a clear config_invalid naming the key.
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {loadGqlSettings} from '../../../source/gql/settings/load-settings.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'wb-gqlsettings-'));
});
afterEach(() => {
  rmSync(dir, {recursive: true, force: true});
});

function file(content: unknown, name = 'appsettings.json'): string {
  const path = join(dir, name);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

const CONNECTION = {ConnectionStrings: {gqlservice: 'Host=localhost;Database=test;Username=postgres'}};

describe('loadGqlSettings', () => {
  it('reads every section of the file', () => {
    const settings = loadGqlSettings({
      file: file({
        ...CONNECTION,
        GqlService: {
          Provider: 'postgres',
          Path: '/api/graphql',
          Playground: '/play',
          DisableAuth: true,
          Metadata: ['a { b: c }', ':root { d: e }'],
          Http3: {Enabled: true, HttpsPort: 6001},
        },
        JwtSettings: {Authority: 'https://id.example', Audience: 'api'},
        Cdc: {WebhookUrl: 'https://hook.example', NatsUrl: 'nats://n:4222'},
      }),
      env: {},
    });
    expect(settings).toMatchObject({
      provider: 'postgres',
      connectionString: 'Host=localhost;Database=test;Username=postgres',
      path: '/api/graphql',
      playground: '/play',
      disableAuth: true,
      metadata: ['a { b: c }', ':root { d: e }'],
      http3: {enabled: true, httpsPort: 6001},
      jwt: {authority: 'https://id.example', audience: 'api'},
      cdc: {webhookUrl: 'https://hook.example', natsUrl: 'nats://n:4222'},
    });
    expect(settings.source).toBe(join(dir, 'appsettings.json'));
  });

  it('applies the spec defaults when a file is given: sqlserver, /graphql, /, auth on, no rules, HTTP/3 off on 5001', () => {
    const settings = loadGqlSettings({file: file({ConnectionStrings: {gqlservice: 'Server=db;Database=x'}}), env: {}});
    expect(settings).toMatchObject({provider: 'sqlserver', path: '/graphql', playground: '/', disableAuth: false, metadata: [], http3: {enabled: false, httpsPort: 5001}});
  });

  it('uses the embedded default without a file: SQLite under WORKBENCH_HOME, auth off', () => {
    const settings = loadGqlSettings({cwd: dir, env: {}});
    expect(settings.provider).toBe('sqlite');
    expect(settings.connectionString).toMatch(/^Data Source=.*graphql\.sqlite$/);
    expect(settings.disableAuth).toBe(true);
    expect(settings.source).toBe('defaults');
  });

  it('finds appsettings.json in the working directory', () => {
    file({...CONNECTION, GqlService: {Provider: 'postgres'}});
    expect(loadGqlSettings({cwd: dir, env: {}}).provider).toBe('postgres');
  });

  it('lets environment variables in .NET form override the file, keys case-insensitive', () => {
    const settings = loadGqlSettings({
      file: file({...CONNECTION, GqlService: {Provider: 'postgres', Metadata: ['first { a: b }', 'second { c: d }']}}),
      env: {
        GqlService__Provider: 'mysql',
        ConnectionStrings__gqlservice: 'Server=m;Database=test;User=root',
        GQLSERVICE__METADATA__0: 'replaced { a: b }',
        JwtSettings__Audience: 'aud',
        GqlService__DisableAuth: 'TRUE',
        GqlService__Http3__HttpsPort: '7001',
        UNRELATED__THING: 'x',
      },
    });
    expect(settings).toMatchObject({
      provider: 'mysql',
      connectionString: 'Server=m;Database=test;User=root',
      metadata: ['replaced { a: b }', 'second { c: d }'],
      jwt: {audience: 'aud'},
      disableAuth: true,
      http3: {httpsPort: 7001},
    });
  });

  it('orders rules given only as variables by their index, not their spelling', () => {
    const settings = loadGqlSettings({file: file(CONNECTION), env: {GqlService__Metadata__10: 'ten {a:b}', GqlService__Metadata__2: 'two {a:b}'}});
    expect(settings.metadata).toEqual(['two {a:b}', 'ten {a:b}']);
  });

  it('refuses bad JSON naming the file', () => {
    expect(() => loadGqlSettings({file: file('{"GqlService": '), env: {}})).toThrow(
      expect.objectContaining({code: 'config_invalid', message: expect.stringMatching(/not valid JSON/)}),
    );
  });

  it('refuses a missing file', () => {
    expect(() => loadGqlSettings({file: join(dir, 'nope.json'), env: {}})).toThrow(expect.objectContaining({code: 'not_found'}));
  });

  it.each([
    [{GqlService: {Provider: 'oracle'}}, /GqlService:Provider must be sqlserver, postgres, mysql or sqlite/],
    [{GqlService: {DisableAuth: 'maybe'}}, /GqlService:DisableAuth must be true or false/],
    [{GqlService: {Metadata: 'a { b: c }'}}, /GqlService:Metadata must be a list of strings/],
    [{GqlService: {Metadata: [1]}}, /GqlService:Metadata:0 must be a string/],
    [{GqlService: {Path: 'graphql'}}, /GqlService:Path must be a URL path/],
    [{GqlService: {Http3: {HttpsPort: 70000}}}, /GqlService:Http3:HttpsPort must be a port/],
    [{GqlService: {Provider: {name: 'x'}}}, /GqlService:Provider must be a single value/],
    [{JwtSettings: {Audience: 5}}, /JwtSettings:Audience must be a string/],
  ])('names the key of a wrong type: %j', (section, message) => {
    expect(() => loadGqlSettings({file: file({...CONNECTION, ...section}), env: {}})).toThrow(
      expect.objectContaining({code: 'config_invalid', message: expect.stringMatching(message)}),
    );
  });

  it('requires a connection string when a file is given', () => {
    expect(() => loadGqlSettings({file: file({GqlService: {}}), env: {}})).toThrow(
      expect.objectContaining({code: 'config_invalid', message: expect.stringMatching(/ConnectionStrings:gqlservice is required/)}),
    );
  });

  it('refuses a file that is not an object', () => {
    expect(() => loadGqlSettings({file: file('[1,2]'), env: {}})).toThrow(expect.objectContaining({code: 'config_invalid'}));
  });
  it('GqlService:Chat: the chat endpoint’s model, from the file or the environment; an unknown Api is named', () => {
    const settings = loadGqlSettings({
      file: file({...CONNECTION, GqlService: {Chat: {Api: 'chat-completions', BaseUrl: 'http://127.0.0.1:9/v1', Model: 'small'}}}),
      env: {GqlService__Chat__ApiKey: 'sk-env'},
    });
    expect(settings.chat).toEqual({api: 'chat-completions', baseUrl: 'http://127.0.0.1:9/v1', model: 'small', apiKey: 'sk-env'});
    expect(loadGqlSettings({file: file(CONNECTION), env: {}}).chat).toEqual({});
    expect(() => loadGqlSettings({file: file({...CONNECTION, GqlService: {Chat: {Api: 'completions'}}}), env: {}})).toThrow(
      expect.objectContaining({code: 'config_invalid', message: 'GqlService:Chat:Api must be messages or chat-completions (got "completions")'}),
    );
  });
});
