// The model read from the live database: Chinook gives the same tables, keys and relationships on
// SQLite, PostgreSQL and MariaDB (the PostgreSQL script spells names in snake_case), and the
// tenant fixture's identity columns, kinds, composite keys, keyless table, view, second schema and
// procedures come through on each.
import knex, {type Knex} from 'knex';
import {afterAll, describe, expect, it} from 'vitest';
import {introspect} from '../../../source/gql/introspect/index.js';
import type {DbModel, DbTable} from '../../../source/gql/types.js';
import {CHINOOK_TABLES, gqlDatabases, snakeCase, type GqlFixture} from '../../helpers/gql-databases.js';

const databases = await gqlDatabases();
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function modelOf(fixture: GqlFixture, schemas?: string[]): Promise<{model: DbModel; db: Knex}> {
  cleanups.push(fixture.drop);
  const db = knex(fixture.knexConfig);
  cleanups.push(() => db.destroy());
  return {model: await introspect(db, fixture.provider, {schemas}), db};
}

/** `InvoiceLine`, `invoice_line` → `invoiceline`: the Chinook name whatever the script's spelling. */
const plain = (name: string) => name.replace(/_/g, '').toLowerCase();

function table(model: DbModel, name: string, schema = model.defaultSchema): DbTable {
  const found = model.tables.find((candidate) => candidate.schema === schema && plain(candidate.name) === plain(name));
  if (!found) throw new Error(`no table ${schema}.${name} in ${model.tables.map((t) => `${t.schema}.${t.name}`).join(', ')}`);
  return found;
}

const references = (t: DbTable) => t.foreignKeys.map((fk) => `${fk.columns.map(plain).join('+')}→${plain(fk.refTable)}.${fk.refColumns.map(plain).join('+')}`).sort();

describe.each(databases.map((database) => [database.kind, database] as const))('introspection on %s', (kind, database) => {
  it.skipIf(database.unavailable !== null)('Chinook: the 11 tables, their primary keys and foreign keys', async () => {
    const {model} = await modelOf(await database.createChinook());
    expect(model.provider).toBe(kind);
    expect(model.defaultSchema).toMatch(kind === 'sqlite' ? /^main$/ : kind === 'postgres' ? /^public$/ : /^wb_/);
    expect(model.tables.map((t) => t.name)).toEqual(CHINOOK_TABLES.map((name) => (kind === 'postgres' ? snakeCase(name) : name)));
    expect(model.tables.every((t) => t.schema === model.defaultSchema && !t.isView)).toBe(true);
    expect(model.procedures).toEqual([]);

    for (const name of CHINOOK_TABLES.filter((name) => name !== 'PlaylistTrack')) expect(table(model, name).primaryKey.map(plain)).toEqual([`${plain(name)}id`]);
    expect(table(model, 'PlaylistTrack').primaryKey.map(plain)).toEqual(['playlistid', 'trackid']);

    expect(references(table(model, 'Track'))).toEqual(['albumid→album.albumid', 'genreid→genre.genreid', 'mediatypeid→mediatype.mediatypeid']);
    expect(references(table(model, 'InvoiceLine'))).toEqual(['invoiceid→invoice.invoiceid', 'trackid→track.trackid']);
    expect(references(table(model, 'PlaylistTrack'))).toEqual(['playlistid→playlist.playlistid', 'trackid→track.trackid']);
    expect(references(table(model, 'Employee'))).toEqual(['reportsto→employee.employeeid']);
    expect(references(table(model, 'Artist'))).toEqual([]);

    const track = table(model, 'Track');
    const column = (name: string) => track.columns.find((c) => plain(c.name) === plain(name))!;
    expect(track.columns.map((c) => plain(c.name))).toEqual(['trackid', 'name', 'albumid', 'mediatypeid', 'genreid', 'composer', 'milliseconds', 'bytes', 'unitprice']);
    expect(column('TrackId')).toMatchObject({kind: 'int', nullable: false});
    expect(column('Name')).toMatchObject({kind: 'string', nullable: false});
    expect(column('Composer')).toMatchObject({kind: 'string', nullable: true});
    expect(column('UnitPrice')).toMatchObject({kind: 'decimal', nullable: false});
    expect(table(model, 'Invoice').columns.find((c) => plain(c.name) === 'invoicedate')).toMatchObject({kind: 'datetime'});
    // SQLite's INTEGER PRIMARY KEY is the rowid; the other scripts declare a plain INT key.
    expect(column('TrackId').isIdentity).toBe(kind === 'sqlite');
  });

  it.skipIf(database.unavailable !== null)('tenant fixture: identities, kinds, composite and missing keys, the view, procedures', async () => {
    const {model} = await modelOf(await database.createTenantFixture());
    const names = model.tables.filter((t) => t.schema === model.defaultSchema).map((t) => t.name);
    expect(names).toEqual(['audit_log', 'labels', 'open_tasks', 'project_members', 'projects', 'task_labels', 'tasks', 'tenants']);

    const tasks = table(model, 'tasks');
    const column = (name: string) => tasks.columns.find((c) => c.name === name)!;
    expect(tasks.primaryKey).toEqual(['id']);
    expect(column('id')).toMatchObject({kind: 'int', isIdentity: true, hasDefault: true, nullable: false});
    expect(column('done')).toMatchObject({kind: 'boolean', hasDefault: true, isIdentity: false});
    expect(column('estimate')).toMatchObject({kind: 'decimal', nullable: true, hasDefault: false});
    expect(column('due')).toMatchObject({kind: 'date'});
    expect(column('deleted_at')).toMatchObject({kind: 'datetime', nullable: true});
    expect(column('created_by')).toMatchObject({kind: 'string', nullable: true, hasDefault: false});
    expect(references(tasks)).toEqual(['projectid→projects.id', 'tenantid→tenants.id']);

    expect(table(model, 'task_labels').primaryKey).toEqual(['task_id', 'label_id']);
    expect(references(table(model, 'task_labels'))).toEqual(['labelid→labels.id', 'taskid→tasks.id']);
    expect(table(model, 'project_members').primaryKey).toEqual(['project_id', 'user_id']);
    expect(table(model, 'audit_log').primaryKey).toEqual([]);
    const view = table(model, 'open_tasks');
    expect(view).toMatchObject({isView: true, primaryKey: [], foreignKeys: []});
    expect(view.columns.map((c) => c.name)).toEqual(['id', 'tenant_id', 'project_id', 'title']);

    if (kind === 'sqlite') expect(model.procedures).toEqual([]);
    if (kind === 'postgres') {
      expect(model.tables.filter((t) => t.schema === 'billing').map((t) => t.name)).toEqual(['invoices', 'plans']);
      const invoices = table(model, 'invoices', 'billing');
      expect(invoices.primaryKey).toEqual(['id']);
      expect(invoices.columns.find((c) => c.name === 'id')).toMatchObject({isIdentity: true});
      expect(invoices.columns.find((c) => c.name === 'reference')).toMatchObject({kind: 'uuid'});
      expect(invoices.columns.find((c) => c.name === 'details')).toMatchObject({kind: 'json'});
      expect(invoices.foreignKeys.map((fk) => `${fk.refSchema}.${fk.refTable}`).sort()).toEqual(['billing.plans', 'public.tenants']);
      expect(table(model, 'plans', 'billing').primaryKey).toEqual(['code']);
      expect(model.procedures).toEqual([
        {
          schema: 'public',
          name: 'archive_task',
          params: [
            {name: 'p_task', kind: 'int', mode: 'in'},
            {name: 'p_by', kind: 'string', mode: 'in'},
          ],
          returnsRows: false,
        },
        {schema: 'public', name: 'task_count', params: [{name: 'p_tenant', kind: 'int', mode: 'in'}], returnsRows: false},
        {schema: 'public', name: 'tenant_tasks', params: [{name: 'p_tenant', kind: 'int', mode: 'in'}], returnsRows: true},
      ]);
    }
    if (kind === 'mysql') {
      expect(model.procedures).toEqual([
        {
          schema: model.defaultSchema,
          name: 'archive_task',
          params: [
            {name: 'p_task', kind: 'int', mode: 'in'},
            {name: 'p_by', kind: 'string', mode: 'in'},
          ],
          returnsRows: false,
        },
        {
          schema: model.defaultSchema,
          name: 'task_count',
          params: [
            {name: 'p_tenant', kind: 'int', mode: 'in'},
            {name: 'p_count', kind: 'int', mode: 'out'},
          ],
          returnsRows: false,
        },
        {schema: model.defaultSchema, name: 'tenant_tasks', params: [{name: 'p_tenant', kind: 'int', mode: 'in'}], returnsRows: true},
      ]);
    }
  });

  it.skipIf(database.unavailable !== null || kind !== 'postgres')('PostgreSQL: a schemas option keeps only those schemas', async () => {
    const {model} = await modelOf(await database.createTenantFixture(), ['billing']);
    expect(model.tables.map((t) => `${t.schema}.${t.name}`)).toEqual(['billing.invoices', 'billing.plans']);
    expect(model.procedures).toEqual([]);
  });
});

describe('introspection of SQLite’s own rules', () => {
  const sqlite = databases.find((database) => database.kind === 'sqlite')!;

  it('an INTEGER PRIMARY KEY is the rowid (filled on insert) unless the table is WITHOUT ROWID; REFERENCES without columns means the parent key', async () => {
    const fixture = await sqlite.createTenantFixture();
    const db = knex(fixture.knexConfig);
    cleanups.push(fixture.drop, () => db.destroy());
    await db.raw('create table Parent (Code INTEGER PRIMARY KEY, Label text)');
    await db.raw('create table Keyed (Code INTEGER PRIMARY KEY, Label text) without rowid');
    await db.raw('create table Wide (Id bigint primary key, Code integer references PARENT)');
    const model = await introspect(db, 'sqlite');
    const find = (name: string) => model.tables.find((t) => t.name === name)!;
    expect(find('Parent').columns[0]).toMatchObject({isIdentity: true, hasDefault: true, nullable: false});
    expect(find('Keyed').columns[0]).toMatchObject({isIdentity: false, nullable: false});
    expect(find('Wide').columns[0]).toMatchObject({kind: 'bigint', isIdentity: false});
    expect(find('Wide').foreignKeys).toEqual([{name: 'fk_Wide_0', columns: ['Code'], refSchema: 'main', refTable: 'Parent', refColumns: ['Code']}]);
  });

  it('an unreadable database is a clear error, not a driver stack', async () => {
    const db = knex({client: 'better-sqlite3', connection: {filename: '/nonexistent-dir/none.sqlite'}, useNullAsDefault: true});
    cleanups.push(() => db.destroy());
    await expect(introspect(db, 'sqlite')).rejects.toMatchObject({
      name: 'WorkbenchError',
      code: 'database_unavailable',
      message: expect.stringMatching(/^Could not read the sqlite database's tables: /),
    });
  });
});
