// The databases the GraphQL service's tests run on: SQLite always, PostgreSQL and MariaDB when the
// machine's servers answer (test-databases.ts decides, and skips loudly or fails under
// WORKBENCH_REQUIRE_SERVICES). Each fixture is a whole database of its own — never a schema in a
// shared one, since introspection reads every schema it can see — loaded with Chinook or with the
// small multi-tenant schema below, and dropped by drop().
import {createHash} from 'node:crypto';
import {copyFileSync, existsSync, mkdirSync, renameSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {dirname, join} from 'node:path';
import knex, {type Knex} from 'knex';
import {testDatabases, type DatabaseKind} from './test-databases.js';
import {chinookScript} from '../../source/gql/sample/chinook-scripts.js';
import {loadChinook as loadSample} from '../../source/gql/sample/load-chinook.js';
import {parseConnectionString} from '../../source/gql/settings/connection-string.js';
import type {GqlSettings} from '../../source/gql/types.js';

// The sample's names, as the product has them (source/gql/sample): loaded by the same code `gql sample` runs.
export {CHINOOK_TABLES, snakeCase} from '../../source/gql/sample/chinook-scripts.js';

export interface GqlFixture {
  provider: DatabaseKind;
  /** In the spec's `key=value;` shape for the provider (what `ConnectionStrings:gqlservice` holds). */
  connectionString: string;
  /** The same database as a knex config (pool kept small: tests run in parallel). */
  knexConfig: Knex.Config;
  /** The database name (the file path on SQLite). */
  database: string;
  drop(): Promise<void>;
}

export interface GqlTestDatabase {
  kind: DatabaseKind;
  /** Why it cannot run here, or null. */
  unavailable: string | null;
  /** The 11 Chinook tables with their rows (snake_case names on PostgreSQL, as the script has them). */
  createChinook(): Promise<GqlFixture>;
  /** The multi-tenant fixture: see TENANT_FIXTURE for what it holds. */
  createTenantFixture(): Promise<GqlFixture>;
  /** An empty database of its own, for tests that create their own tables. */
  createEmpty(): Promise<GqlFixture>;
}

/** What createTenantFixture() loads, for assertions. */
export const TENANT_FIXTURE = {
  tables: ['tenants', 'projects', 'tasks', 'labels', 'task_labels', 'project_members', 'audit_log'],
  views: ['open_tasks'],
  /** PostgreSQL only: a second schema. */
  billingTables: ['billing.plans', 'billing.invoices'],
  /** PostgreSQL: functions `task_count`, `tenant_tasks` (set-returning) and procedure `archive_task`; MariaDB: procedures `tenant_tasks`, `archive_task`, `task_count`. */
  procedures: ['task_count', 'tenant_tasks', 'archive_task'],
  tenants: [
    {id: 1, name: 'acme'},
    {id: 2, name: 'globex'},
  ],
  /** Tasks per tenant, soft-deleted ones included; one task of each tenant is soft-deleted. */
  tasksPerTenant: {1: 4, 2: 3},
  deletedTasks: [3, 6],
} as const;

/** The service's settings for a fixture: auth off, these metadata rules. */
export function settingsFor(fixture: GqlFixture, metadata: string[] = []): GqlSettings {
  return {
    provider: fixture.provider,
    connectionString: fixture.connectionString,
    metadata,
    path: '/graphql',
    playground: '/',
    disableAuth: true,
    http3: {enabled: false, httpsPort: 5001},
    jwt: {},
    cdc: {},
    source: 'test',
  };
}

// ---------------------------------------------------------------- Chinook

/**
 * One loaded SQLite file per script version per machine (keyed by its hash), loaded by the
 * product's `gql sample` code: copying it is ~100× faster than loading (~100 ms) for every test.
 */
async function cachedChinookSqlite(): Promise<string> {
  const hash = createHash('sha256').update(chinookScript('sqlite')).digest('hex').slice(0, 16);
  const cached = join(tmpdir(), 'workbench-test-cache', `chinook-${hash}.sqlite`);
  if (existsSync(cached)) return cached;
  mkdirSync(dirname(cached), {recursive: true});
  // Built under a private name and renamed into place, so a parallel test file never copies a half-loaded file.
  const building = `${cached}.${process.pid}.${Date.now()}`;
  try {
    await loadSample(parseConnectionString('sqlite', `Data Source=${building}`));
    renameSync(building, cached);
  } finally {
    rmSync(building, {force: true});
  }
  return cached;
}

// ---------------------------------------------------------------- the multi-tenant fixture

const AUDIT = (table: Knex.CreateTableBuilder) => {
  table.string('created_by', 100);
  table.dateTime('created_on');
  table.string('updated_by', 100);
  table.dateTime('updated_on');
};

async function createTenantTables(db: Knex, kind: DatabaseKind): Promise<void> {
  await db.schema.createTable('tenants', (t) => {
    t.increments('id');
    t.string('name', 100).notNullable().unique();
  });
  await db.schema.createTable('projects', (t) => {
    t.increments('id');
    t.integer('tenant_id').unsigned().notNullable().references('id').inTable('tenants');
    t.string('name', 100).notNullable();
    AUDIT(t);
  });
  await db.schema.createTable('tasks', (t) => {
    t.increments('id');
    t.integer('tenant_id').unsigned().notNullable().references('id').inTable('tenants');
    t.integer('project_id').unsigned().notNullable().references('id').inTable('projects');
    t.string('title', 200).notNullable();
    t.boolean('done').notNullable().defaultTo(false);
    // Declared as written: knex would declare a decimal as `float` on SQLite.
    t.specificType('estimate', 'decimal(8,2)');
    t.date('due');
    t.dateTime('deleted_at');
    t.string('deleted_by', 100);
    AUDIT(t);
  });
  await db.schema.createTable('labels', (t) => {
    t.increments('id');
    t.integer('tenant_id').unsigned().notNullable().references('id').inTable('tenants');
    t.string('name', 50).notNullable();
  });
  // The many-to-many junction (tasks ↔ labels), keyed by both sides.
  await db.schema.createTable('task_labels', (t) => {
    t.integer('task_id').unsigned().notNullable().references('id').inTable('tasks');
    t.integer('label_id').unsigned().notNullable().references('id').inTable('labels');
    t.primary(['task_id', 'label_id']);
  });
  // A composite key that is not a junction: (project, user) with a payload column.
  await db.schema.createTable('project_members', (t) => {
    t.integer('project_id').unsigned().notNullable().references('id').inTable('projects');
    t.string('user_id', 100).notNullable();
    t.integer('tenant_id').unsigned().notNullable().references('id').inTable('tenants');
    t.string('role', 20).notNullable();
    t.primary(['project_id', 'user_id']);
  });
  // No primary key at all: readable, never mutable.
  await db.schema.createTable('audit_log', (t) => {
    t.integer('tenant_id').unsigned().notNullable();
    t.dateTime('at').notNullable();
    t.string('message', 200).notNullable();
  });
  await db.raw(`create view open_tasks as select id, tenant_id, project_id, title from tasks where deleted_at is null and done = ${kind === 'postgres' ? 'false' : '0'}`);

  if (kind === 'postgres') {
    await db.raw('create schema billing');
    await db.raw(`create table billing.plans (code varchar(20) primary key, monthly numeric(10,2) not null)`);
    await db.raw(`create table billing.invoices (
      id integer generated always as identity primary key,
      tenant_id integer not null references public.tenants(id),
      plan_code varchar(20) not null references billing.plans(code),
      amount numeric(10,2) not null,
      issued_on date not null,
      paid boolean not null default false,
      reference uuid,
      details jsonb)`);
    await db.raw(`create function public.task_count(p_tenant integer) returns integer language sql stable as
      'select count(*)::integer from public.tasks where tenant_id = p_tenant and deleted_at is null'`);
    await db.raw(`create function public.tenant_tasks(p_tenant integer) returns setof public.tasks language sql stable as
      'select * from public.tasks where tenant_id = p_tenant and deleted_at is null order by id'`);
    await db.raw(`create procedure public.archive_task(p_task integer, p_by varchar) language sql as
      'update public.tasks set deleted_at = now(), deleted_by = p_by where id = p_task'`);
  }
  if (kind === 'mysql') {
    await db.raw('create procedure tenant_tasks(in p_tenant int) select * from tasks where tenant_id = p_tenant and deleted_at is null order by id');
    await db.raw('create procedure archive_task(in p_task int, in p_by varchar(100)) update tasks set deleted_at = now(), deleted_by = p_by where id = p_task');
    await db.raw('create procedure task_count(in p_tenant int, out p_count int) select count(*) into p_count from tasks where tenant_id = p_tenant and deleted_at is null');
  }
}

async function seedTenantRows(db: Knex, kind: DatabaseKind): Promise<void> {
  // A plain timestamp string: every driver binds it (better-sqlite3 binds no Date) and SQLite keeps it readable.
  const on = '2026-01-05 10:00:00';
  const audit = {created_by: 'seed', created_on: on, updated_by: 'seed', updated_on: on};
  await db('tenants').insert(TENANT_FIXTURE.tenants.map(({name}) => ({name})));
  await db('projects').insert([
    {tenant_id: 1, name: 'Rockets', ...audit},
    {tenant_id: 1, name: 'Anvils', ...audit},
    {tenant_id: 2, name: 'Plans', ...audit},
  ]);
  const deleted = {deleted_at: on, deleted_by: 'alice'};
  await db('tasks').insert([
    {tenant_id: 1, project_id: 1, title: 'Design fins', done: true, estimate: 3.5, due: '2026-02-01', deleted_at: null, deleted_by: null, ...audit},
    {tenant_id: 1, project_id: 1, title: 'Buy fuel', done: false, estimate: 1, due: '2026-02-02', deleted_at: null, deleted_by: null, ...audit},
    {tenant_id: 1, project_id: 2, title: 'Old anvil', done: false, estimate: null, due: null, ...deleted, ...audit},
    {tenant_id: 1, project_id: 2, title: 'Drop test', done: false, estimate: 8, due: '2026-03-01', deleted_at: null, deleted_by: null, ...audit},
    {tenant_id: 2, project_id: 3, title: 'World plan', done: false, estimate: 100, due: '2026-12-31', deleted_at: null, deleted_by: null, ...audit},
    {tenant_id: 2, project_id: 3, title: 'Shredded', done: true, estimate: 2, due: null, ...deleted, ...audit},
    {tenant_id: 2, project_id: 3, title: 'Hire staff', done: false, estimate: 5.25, due: '2026-06-30', deleted_at: null, deleted_by: null, ...audit},
  ]);
  await db('labels').insert([
    {tenant_id: 1, name: 'urgent'},
    {tenant_id: 1, name: 'later'},
    {tenant_id: 2, name: 'secret'},
  ]);
  await db('task_labels').insert([
    {task_id: 1, label_id: 1},
    {task_id: 2, label_id: 1},
    {task_id: 2, label_id: 2},
    {task_id: 4, label_id: 2},
    {task_id: 5, label_id: 3},
    {task_id: 7, label_id: 3},
  ]);
  await db('project_members').insert([
    {project_id: 1, user_id: 'alice', tenant_id: 1, role: 'owner'},
    {project_id: 1, user_id: 'bob', tenant_id: 1, role: 'member'},
    {project_id: 3, user_id: 'hank', tenant_id: 2, role: 'owner'},
  ]);
  await db('audit_log').insert([
    {tenant_id: 1, at: on, message: 'tenant created'},
    {tenant_id: 2, at: on, message: 'tenant created'},
  ]);
  if (kind === 'postgres') {
    await db('billing.plans').insert([
      {code: 'basic', monthly: 10},
      {code: 'pro', monthly: 49.99},
    ]);
    await db('billing.invoices').insert([
      {tenant_id: 1, plan_code: 'pro', amount: 49.99, issued_on: '2026-01-31', paid: true, reference: '2b0f6c0e-8a43-4f6b-9a57-4b1f3c2d9e01', details: {lines: 1}},
      {tenant_id: 2, plan_code: 'basic', amount: 10, issued_on: '2026-01-31', paid: false, reference: null, details: null},
    ]);
  }
}

// ---------------------------------------------------------------- per provider

function fixtureFor(kind: DatabaseKind, connection: string, drop: () => Promise<void>): GqlFixture {
  if (kind === 'sqlite') {
    return {
      provider: kind,
      connectionString: `Data Source=${connection}`,
      knexConfig: {client: 'better-sqlite3', connection: {filename: connection}, useNullAsDefault: true},
      database: connection,
      drop,
    };
  }
  const url = new URL(connection);
  const database = url.pathname.slice(1);
  const user = decodeURIComponent(url.username);
  const port = Number(url.port);
  if (kind === 'postgres') {
    return {
      provider: kind,
      connectionString: `Host=${url.hostname};Port=${port};Database=${database};Username=${user}`,
      knexConfig: {client: 'pg', connection: {host: url.hostname, port, database, user}, pool: {min: 0, max: 4}},
      database,
      drop,
    };
  }
  return {
    provider: kind,
    connectionString: `Server=${url.hostname};Port=${port};Database=${database};User=${user}`,
    knexConfig: {client: 'mysql2', connection: {host: url.hostname, port, database, user}, pool: {min: 0, max: 4}},
    database,
    drop,
  };
}

async function loadChinook(fixture: GqlFixture): Promise<void> {
  if (fixture.provider === 'sqlite') {
    copyFileSync(await cachedChinookSqlite(), fixture.database);
    return;
  }
  await loadSample(parseConnectionString(fixture.provider, fixture.connectionString));
}

async function loadTenantFixture(fixture: GqlFixture): Promise<void> {
  const db = knex({...fixture.knexConfig, pool: {min: 0, max: 1}});
  try {
    await createTenantTables(db, fixture.provider);
    await seedTenantRows(db, fixture.provider);
  } finally {
    await db.destroy();
  }
}

/** SQLite, PostgreSQL and MariaDB, each able to make fresh Chinook and tenant-fixture databases. */
export async function gqlDatabases(): Promise<GqlTestDatabase[]> {
  const databases = await testDatabases();
  return databases.map((database) => {
    const create = async (load: (fixture: GqlFixture) => Promise<void>) => {
      const {connection, drop} = await database.createDatabase();
      const fixture = fixtureFor(database.kind, connection, drop);
      try {
        await load(fixture);
      } catch (error) {
        await drop().catch(() => undefined);
        throw error;
      }
      return fixture;
    };
    return {
      kind: database.kind,
      unavailable: database.unavailable,
      createChinook: () => create(loadChinook),
      createTenantFixture: () => create(loadTenantFixture),
      createEmpty: () => create(async () => {}),
    };
  });
}
