// `workbench gql check` and `gql explain-policy`, run as the built CLI: against a SQLite file made
// here, against the tenant fixture on every provider, and against bad settings, bad flags and
// missing files (one clear line, exit 1, never a stack).
import {existsSync, mkdirSync, writeFileSync} from 'node:fs';
import {createRequire} from 'node:module';
import {join} from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {makeSandbox, runCli, type Sandbox} from '../../helpers/cli.js';
import {gqlDatabases} from '../../helpers/gql-databases.js';

const SqliteDatabase = createRequire(import.meta.url)('better-sqlite3') as new (file: string) => {exec(sql: string): void; close(): void};

let sandbox: Sandbox;
let work: string;

beforeAll(() => {
  sandbox = makeSandbox('wb-gqlcheck-');
  work = join(sandbox.dir, 'work');
  mkdirSync(work);
  const db = new SqliteDatabase(join(work, 'app.sqlite'));
  db.exec(`
    create table tenants (id integer primary key, name text not null);
    create table projects (id integer primary key, tenant_id integer not null references tenants(id), name text, deleted_at text, created_by text);
    create table tasks (id integer primary key, project_id integer references projects(id), title text, owner text, secret text);
  `);
  db.close();
});
afterAll(async () => {
  await sandbox.cleanup();
});

const GOOD_RULES = [
  'main.projects { tenant-filter: tenant_id; soft-delete: deleted_at }',
  'main.projects.created_by { populate: created-by; update: none }',
  'main.tasks { auto-filter: owner:sub }',
  'main.tasks.secret { visibility: hidden }',
  ':root { auto-filter-bypass-role: admin; generic-table: enabled }',
];

function settings(name: string, metadata: string[], extra: Record<string, unknown> = {}): string {
  const path = join(work, name);
  writeFileSync(path, JSON.stringify({ConnectionStrings: {gqlservice: `Data Source=${join(work, 'app.sqlite')}`}, GqlService: {Provider: 'sqlite', Metadata: metadata, ...extra}}));
  return path;
}

const gql = (args: string[], env: NodeJS.ProcessEnv = {}) => runCli(['gql', ...args], {env: {...sandbox.env, ...env}, cwd: work});

describe('gql check', () => {
  it('loads a clean model: a summary, no problems, exit 0', async () => {
    const result = await gql(['check', '--settings', settings('good.json', GOOD_RULES)]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('5 rules, 3 tables served (0 hidden)');
    expect(result.stdout).toContain('no problems');
  });

  it('lists every problem at once, each with its rule text, exit 1', async () => {
    const file = settings('bad.json', [
      'main.tasks { visibility: hidden', // missing brace
      ':root { max-query-rows: 0 }',
      'main.projects { tenant-filter: tenant; delete-type: purge }',
      'main.tasks { label: a; label: b }',
      'main.tasks.title { populate: whenever }',
      'main.projects { many-to-many: tasks:nowhere }',
    ]);
    const result = await gql(['check', '--settings', file]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('7 problems:');
    expect(result.stdout).toMatch(/missing brace[\s\S]*rule 0: main\.tasks \{ visibility: hidden/);
    expect(result.stdout).toMatch(/max-query-rows: "0": must be a positive number[\s\S]*rule 1: :root/);
    expect(result.stdout).toMatch(/tenant-filter: "tenant": the table has no column tenant/);
    expect(result.stdout).toMatch(/delete-type: "purge": must be soft or hard/);
    expect(result.stdout).toMatch(/duplicate key: label/);
    expect(result.stdout).toMatch(/populate: "whenever"/);
    expect(result.stdout).toMatch(/many-to-many "tasks:nowhere": no table nowhere/);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it('--raw prints the report as JSON, problems included', async () => {
    const result = await gql(['check', '--settings', settings('raw.json', ['main.nothing { }', ':root { max-query-rows: -1 }']), '--raw']);
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout);
    expect(report).toMatchObject({provider: 'sqlite', rules: 2, tables: 3});
    expect(report.problems).toEqual([expect.objectContaining({rule: ':root { max-query-rows: -1 }', ruleIndex: 1, target: ':root'})]);
  });

  it('reads rules from GqlService__Metadata__N variables over the file', async () => {
    const result = await gql(['check', '--settings', settings('env.json', GOOD_RULES)], {GqlService__Metadata__0: 'main.projects { soft-delete: gone }'});
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/soft-delete: "gone": the table has no column gone/);
  });

  it('finds appsettings.json in the working directory', async () => {
    settings('appsettings.json', GOOD_RULES);
    const result = await gql(['check']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`settings: ${join(work, 'appsettings.json')}`);
  });

  it('refuses bad JSON in one line naming the file, --raw as {"error"}', async () => {
    const file = join(work, 'broken.json');
    writeFileSync(file, '{"GqlService": {"Metadata": [}');
    const result = await gql(['check', '--settings', file]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^workbench: settings file .*broken\.json is not valid JSON/);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    const raw = await gql(['check', '--settings', file, '--raw']);
    expect(JSON.parse(raw.stdout).error).toMatch(/not valid JSON/);
  });

  it('refuses a wrongly typed setting naming its key', async () => {
    const result = await gql(['check', '--settings', settings('typed.json', [], {DisableAuth: 'sometimes'})]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/GqlService:DisableAuth must be true or false/);
  });

  it('refuses a missing settings file and a missing SQLite database (without creating it)', async () => {
    const missing = await gql(['check', '--settings', 'nope.json']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/settings file .*nope\.json not found/);
    const file = join(work, 'nodb.json');
    writeFileSync(file, JSON.stringify({ConnectionStrings: {gqlservice: `Data Source=${join(work, 'absent.sqlite')}`}, GqlService: {Provider: 'sqlite'}}));
    const noDb = await gql(['check', '--settings', file]);
    expect(noDb.code).toBe(1);
    expect(noDb.stderr).toMatch(/SQLite database .*absent\.sqlite does not exist/);
    expect(existsSync(join(work, 'absent.sqlite'))).toBe(false);
  });

  it('refuses garbage flags', async () => {
    const result = await gql(['check', '--bogus', 'x']);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/unknown option/);
  });
});

describe('gql explain-policy', () => {
  it('prints per table and operation the rules that apply and their SQL', async () => {
    const result = await gql(['explain-policy', '--settings', settings('explain.json', GOOD_RULES), '--claims', '{"tenant_id": 7, "sub": "ann"}']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /projects \(main\.projects\)\n {2}read-only columns: created_by\n {2}read {3}where tenant_id = \? {3}with \? = 7 {3}\(tenant-filter\)\n\s+where deleted_at is null {3}\(soft-delete\)/,
    );
    expect(result.stdout).toMatch(/insert writes tenant_id = 7 whatever the request says/);
    expect(result.stdout).toMatch(/soft delete: sets deleted_at = now instead of deleting/);
    expect(result.stdout).toMatch(/tasks \(main\.tasks\)\n {2}hidden columns: secret\n {2}read {3}where owner = \? {3}with \? = "ann" {3}\(auto-filter\)/);
    expect(result.stdout).toMatch(/_table \(generic-table\): needs role gql-admin — not allowed/);
  });

  it('says why an anonymous user is denied, and that a bypass role skips auto-filters', async () => {
    const file = settings('explain2.json', GOOD_RULES);
    const anonymous = await gql(['explain-policy', '--settings', file, '--table', 'projects']);
    expect(anonymous.stdout).toMatch(/read {3}DENIED: projects is isolated by tenant and the request carries no single "tenant_id" claim/);
    expect(anonymous.stdout).not.toContain('tasks (main.tasks)');
    const admin = await gql(['explain-policy', '--settings', file, '--table', 'main.tasks', '--claims', '{"roles": ["admin", "gql-admin"]}']);
    expect(admin.stdout).toMatch(/auto-filter owner:sub bypassed by the user's role/);
    expect(admin.stdout).toMatch(/read {3}all rows/);
    expect(admin.stdout).toMatch(/_table \(generic-table\): needs role gql-admin — allowed/);
  });

  it('--raw prints the explanation as JSON', async () => {
    const result = await gql(['explain-policy', '--settings', settings('explain3.json', GOOD_RULES), '--table', 'tasks', '--claims', '{"sub": "bob"}', '--raw']);
    const explanation = JSON.parse(result.stdout);
    expect(explanation.tables).toHaveLength(1);
    expect(explanation.tables[0].operations[0]).toEqual({
      operation: 'read',
      predicates: [{rule: 'auto-filter', column: 'owner', sql: 'owner = ?', bindings: ['bob']}],
      forcedValues: {owner: 'bob'},
      notes: [],
    });
  });

  it('refuses bad claims and an unknown table clearly', async () => {
    const file = settings('explain4.json', GOOD_RULES);
    const badClaims = await gql(['explain-policy', '--settings', file, '--claims', '{tenant: 1}']);
    expect(badClaims.code).toBe(1);
    expect(badClaims.stderr).toMatch(/^workbench: --claims is not valid JSON/);
    const notObject = await gql(['explain-policy', '--settings', file, '--claims', '[1]']);
    expect(notObject.stderr).toMatch(/--claims must be a JSON object/);
    const unknown = await gql(['explain-policy', '--settings', file, '--table', 'nope']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/no table nope in the model/);
  });
});

// The same check on the live databases: introspection, rules and model on each provider.
const databases = await gqlDatabases();
const drops: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const drop of drops) await drop();
});

describe.each(databases.map((database) => [database.kind, database] as const))('gql check on %s', (kind, database) => {
  it.skipIf(database.unavailable !== null)('loads the tenant fixture with tenant, soft-delete and many-to-many rules', async () => {
    const fixture = await database.createTenantFixture();
    drops.push(fixture.drop);
    const file = join(work, `tenant-${kind}.json`);
    writeFileSync(
      file,
      JSON.stringify({
        ConnectionStrings: {gqlservice: fixture.connectionString},
        GqlService: {
          Provider: kind,
          Metadata: [
            '*.*|has(tenant_id) { tenant-filter: tenant_id }',
            '*.tasks { soft-delete: deleted_at; soft-delete-by: deleted_by }',
            '*.tasks { many-to-many: labels:task_labels }',
          ],
        },
      }),
    );
    const result = await gql(['check', '--settings', file, '--raw']);
    expect(result.stderr).toBe('');
    const report = JSON.parse(result.stdout);
    expect(report.problems).toEqual([]);
    expect(report.tables).toBeGreaterThanOrEqual(8);
    expect(result.code).toBe(0);
    const explained = await gql(['explain-policy', '--settings', file, '--table', 'tasks', '--claims', '{"tenant_id": 2}', '--raw']);
    const read = JSON.parse(explained.stdout).tables[0].operations[0];
    expect(read.predicates.map((predicate: {sql: string}) => predicate.sql)).toEqual(['tenant_id = ?', 'deleted_at is null']);
  });
});
