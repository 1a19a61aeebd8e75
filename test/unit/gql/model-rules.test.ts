// Metadata rules shaping the model: names, links, limits, policies, and invalid combinations
// reported as problems naming the target and the rule.
import {describe, expect, it} from 'vitest';
import {modelFrom} from '../../../source/gql/load-model.js';
import type {GqlModel} from '../../../source/gql/types.js';
import {chinook, column, table} from './chinook-db-model.js';

function build(...rules: string[]) {
  return modelFrom(chinook(), rules);
}

function ok(...rules: string[]): GqlModel {
  const {model, problems} = build(...rules);
  expect(problems).toEqual([]);
  return model;
}

function problems(...rules: string[]): string {
  const result = build(...rules);
  expect(result.problems.length).toBeGreaterThan(0);
  return result.problems.map((p) => `${p.message} [${p.rule ?? ''}]`).join('\n');
}

const linkNames = (model: GqlModel, key: string) => model.byKey.get(key)!.links.map((link) => link.name);

describe('names', () => {
  it('de-pluralize', () => {
    const db = chinook();
    db.tables.push(table('Categories', [column('Id')], ['Id']), table('Boxes', [column('Id')], ['Id']), table('Status', [column('Id')], ['Id']));
    const model = modelFrom(db, [':root { de-pluralize: true }']).model;
    expect([...model.byName.keys()].slice(-3)).toEqual(['Category', 'Box', 'Status']);
  });

  it('conventions: bifrost spells tables and columns as upstream does now: first letter lower-cased, nothing pluralised; links follow', () => {
    const model = ok(':root { conventions: bifrost }');
    expect(model.conventions).toBe('bifrost');
    const track = model.byKey.get('main.Track')!;
    expect(track.name).toBe('track');
    expect(track.columns.map((c) => c.name).slice(0, 3)).toEqual(['trackId', 'name', 'albumId']);
    expect(linkNames(model, 'main.Track')).toContain('album');
    expect(linkNames(model, 'main.Album')).toContain('track');
    // The default keeps the database's names.
    expect(ok().byKey.get('main.Track')!.columns[0]!.name).toBe('TrackId');
    expect(ok().conventions).toBe('classic');
  });

  it('conventions: bifrost maps the characters GraphQL cannot spell as upstream does, and keeps column names unique', () => {
    const db = chinook();
    db.tables.push(table('Order Details', [column('Unit-Price'), column('2fa'), column('__x'), column('Prix€'), column('Name'), column('name')], []));
    const details = modelFrom(db, [':root { conventions: bifrost }']).model.byKey.get('main.Order Details')!;
    expect(details.name).toBe('order_Details');
    expect(details.columns.map((c) => c.name)).toEqual(['unit_Price', 'col_2fa', 'col__x', 'prix_ac', 'name', 'name_2']);
    expect(details.columns.map((c) => c.dbName)).toEqual(['Unit-Price', '2fa', '__x', 'Prix€', 'Name', 'name']);
  });

  it('schema-prefix with its default schema and format', () => {
    const db = chinook();
    db.tables.push(table('orders', [column('id')], ['id'], [], 'sales'));
    expect([...modelFrom(db, [':root { schema-prefix: enabled }']).model.byName.keys()]).toContain('sales_orders');
    expect([...modelFrom(db, [':root { schema-prefix: enabled; schema-prefix-format: camelcase }']).model.byName.keys()]).toContain('salesOrders');
    expect([...modelFrom(db, [':root { schema-prefix: enabled; schema-prefix-format: {schema}__{table} }']).model.byName.keys()]).toContain('sales__orders');
    const prefixedMain = modelFrom(db, [':root { schema-prefix: enabled; schema-prefix-default: sales }']).model;
    expect(prefixedMain.byName.has('main_Album')).toBe(true);
    expect(prefixedMain.byName.has('orders')).toBe(true);
  });

  it('schema-display: prefix prefixes, field groups under schema fields, excluded schemas hidden', () => {
    const db = chinook();
    db.tables.push(table('orders', [column('id')], ['id'], [], 'sales'), table('log', [column('id')], ['id'], [], 'audit'));
    expect(modelFrom(db, [':root { schema-display: prefix }']).model.byName.has('sales_orders')).toBe(true);
    const field = modelFrom(db, [':root { schema-display: field; schema-excluded: audit }']).model;
    expect(field.schemaDisplay).toBe('field');
    expect(field.byKey.get('sales.orders')).toMatchObject({name: 'orders', schemaField: 'sales', hidden: false});
    expect(field.byKey.get('main.Album')!.schemaField).toBeUndefined();
    expect(field.byKey.get('audit.log')!.hidden).toBe(true);
    const otherDefault = modelFrom(db, [':root { schema-display: field; schema-default: sales }']).model;
    expect(otherDefault.byKey.get('main.Album')!.schemaField).toBe('main');
    expect(otherDefault.schemaDefault).toBe('sales');
  });
});

describe('links', () => {
  it('foreign-joins: false drops foreign-key links (name matches stay until auto-join: false)', () => {
    expect(
      ok(':root { foreign-joins: false }')
        .byKey.get('main.Album')!
        .links.map((link) => link.origin),
    ).toEqual(['name-match', 'name-match']);
    expect(linkNames(ok(':root { foreign-joins: false; auto-join: false }'), 'main.Album')).toEqual([]);
  });

  it('auto-join: false on a table drops the links inferred for it, on the model all of them', () => {
    const model = ok('main.Genre { auto-join: false }');
    expect(linkNames(model, 'main.Track')).toEqual(['Album', 'PlaylistTrack']);
    expect(linkNames(model, 'main.Genre')).toEqual([]);
    expect(linkNames(ok(':root { auto-join: false }'), 'main.Track')).toEqual([]);
  });

  it('a table join rule adds a named link and its reverse', () => {
    const model = ok(':root { auto-join: false }', 'main.Customer { join: Rep = Employee(SupportRepId = EmployeeId) }');
    expect(model.byKey.get('main.Customer')!.links).toEqual([
      {name: 'Rep', kind: 'single', target: 'main.Employee', sourceColumns: ['SupportRepId'], targetColumns: ['EmployeeId'], origin: 'join-rule'},
    ]);
    expect(model.byKey.get('main.Employee')!.links).toEqual([expect.objectContaining({name: 'Customer', kind: 'many', target: 'main.Customer', origin: 'join-rule'})]);
  });

  it('a column join rule reaches the target key; several accumulate', () => {
    const model = ok(':root { auto-join: false }', 'main.Track.AlbumId { join: Album }', 'main.Track.GenreId { join: Kind = main.Genre.GenreId }');
    expect(linkNames(model, 'main.Track')).toEqual(['Album', 'Kind']);
    expect(model.byKey.get('main.Track')!.links[1]).toMatchObject({kind: 'single', target: 'main.Genre', sourceColumns: ['GenreId'], targetColumns: ['GenreId']});
  });

  it('many-to-many <Target>:<Junction> links through the junction keys', () => {
    const model = ok('main.Playlist { many-to-many: Track:PlaylistTrack }');
    expect(model.byKey.get('main.Playlist')!.links.find((link) => link.origin === 'many-to-many')).toEqual({
      name: 'Track',
      kind: 'many',
      target: 'main.Track',
      sourceColumns: ['PlaylistId'],
      targetColumns: ['TrackId'],
      via: {junction: 'main.PlaylistTrack', junctionSourceColumns: ['PlaylistId'], junctionTargetColumns: ['TrackId']},
      origin: 'many-to-many',
    });
  });

  it('visibility: hidden on a table drops it and every link reaching it', () => {
    const model = ok('main.Genre { visibility: hidden }');
    expect(model.byName.has('Genre')).toBe(false);
    expect(model.byKey.get('main.Genre')!.hidden).toBe(true);
    expect(linkNames(model, 'main.Track')).toEqual(['Album', 'PlaylistTrack']);
  });

  it.each([
    ['main.Customer { join: Employee }', /join "Employee" must read/],
    ['main.Customer { join: Nope(SupportRepId = EmployeeId) }', /no table Nope/],
    ['main.Customer { join: Employee(Missing = EmployeeId) }', /main\.Customer has no column Missing/],
    ['main.Customer { join: Employee(SupportRepId = Missing) }', /main\.Employee has no column Missing/],
    ['main.Customer { join: 1bad = Employee(SupportRepId = EmployeeId) }', /not a GraphQL field name/],
    ['main.Customer { join: FirstName = Employee(SupportRepId = EmployeeId) }', /already a column/],
    ['main.Customer.SupportRepId { join: PlaylistTrack }', /no single-column primary key/],
    ['main.Playlist { many-to-many: Track }', /must read <TargetTable>:<JunctionTable>/],
    ['main.Playlist { many-to-many: Track:Missing }', /no table Missing/],
    ['main.Playlist { many-to-many: Genre:PlaylistTrack }', /has no foreign key to main\.Genre/],
  ])('a bad join is a problem naming the rule: %s', (rule, message) => {
    const text = problems(rule);
    expect(text).toMatch(message);
    expect(text).toContain(`[${rule}]`);
  });
});

describe('limits, batches and roles', () => {
  it('reads every numeric and role setting', () => {
    const model = ok(
      ':root { max-query-rows: 500; default-limit: 25; tenant-context-key: org; auto-filter-bypass-role: admin }',
      ':root { raw-sql: enabled; raw-sql-role: dba; raw-sql-timeout: 5; raw-sql-max-rows: 50 }',
      ':root { generic-table: enabled; generic-table-max-rows: 20; generic-table-allowed: Album, Track; generic-table-denied: Employee }',
      'main.Track { default-limit: 10; batch-max-size: 200; bulk-batch-threshold: 0; batch-duplicate-policy: reject; filtered-update: enabled; filtered-update-max-affected: 7 }',
    );
    expect(model).toMatchObject({
      maxQueryRows: 500,
      defaultLimit: 25,
      tenantContextKey: 'org',
      autoFilterBypassRole: 'admin',
      rawSql: {enabled: true, role: 'dba', timeoutSeconds: 5, maxRows: 50},
      genericTable: {enabled: true, role: 'gql-admin', maxRows: 20, allowed: ['Album', 'Track'], denied: ['Employee']},
    });
    expect(model.byKey.get('main.Track')).toMatchObject({
      defaultLimit: 10,
      batchMaxSize: 200,
      bulkBatchThreshold: 0,
      batchDuplicatePolicy: 'reject',
      filteredUpdate: true,
      filteredUpdateMaxAffected: 7,
    });
  });

  it.each([
    [':root { max-query-rows: 0 }', /max-query-rows: "0": must be a positive number/],
    [':root { max-query-rows: -5 }', /must be a positive number/],
    [':root { max-query-rows: lots }', /must be a whole number/],
    [':root { default-limit: 1.5 }', /must be a whole number/],
    ['main.Track { batch-max-size: 0 }', /must be a positive number/],
    ['main.Track { filtered-update-max-affected: x }', /must be a whole number/],
    ['main.Track { batch-duplicate-policy: first-wins }', /must be last-wins or reject/],
    ['main.Track { filtered-update: sometimes }', /must be enabled or disabled/],
    [':root { raw-sql: maybe }', /must be true or false/],
    [':root { schema-display: nested }', /must be flat or prefix or field/],
    [':root { conventions: hasura }', /^:root: conventions: "hasura": must be classic or bifrost \[/],
    ['main.Track { conventions: bifrost }', /conventions.*applies to the model \(:root\), not to a table/],
    [':root { schema-prefix-format: weird }', /must be underscore, camelcase, or a template/],
    [':root { sp-include: (?=x) }', /sp-include.*RE2/],
    ['main.Track { max-query-rows: 5 }', /applies to the model \(:root\), not to a table/],
    [':root { tenant-filter: x }', /applies to a table, not to a model/],
    ['main.Track.Name { label: Name }', /applies to a table, not to a column/],
  ])('%s is a problem', (rule, message) => {
    const text = problems(rule);
    expect(text).toMatch(message);
    expect(text).toContain(`[${rule}]`);
  });
});

describe('data behaviour', () => {
  it('tenant, auto-filter, soft delete, populate, update: none, hidden column, label', () => {
    const model = ok(
      'main.Customer { tenant-filter: TenantId; auto-filter: SupportRepId:rep_id; soft-delete: DeletedAt; soft-delete-by: DeletedBy; label: FirstName }',
      'main.Customer.FirstName { update: none; populate: created-by }',
      'main.Customer.TenantId { visibility: hidden }',
    );
    const customer = model.byKey.get('main.Customer')!;
    expect(customer).toMatchObject({
      tenantColumn: 'TenantId',
      autoFilters: [{column: 'SupportRepId', claim: 'rep_id'}],
      softDelete: {column: 'DeletedAt', byColumn: 'DeletedBy'},
      deleteType: 'soft',
      label: 'FirstName',
    });
    expect(customer.columns.find((c) => c.dbName === 'FirstName')).toMatchObject({readOnly: true, populate: 'created-by', meta: {update: 'none', populate: 'created-by'}});
    expect(customer.columns.find((c) => c.dbName === 'TenantId')!.hidden).toBe(true);
  });

  it('delete-type: soft uses the column populated deleted-on when no soft-delete column is named', () => {
    const model = ok('main.Customer { delete-type: soft }', 'main.Customer.DeletedAt { populate: deleted-on }', 'main.Customer.DeletedBy { populate: deleted-by }');
    expect(model.byKey.get('main.Customer')).toMatchObject({deleteType: 'soft', softDelete: {column: 'DeletedAt', byColumn: 'DeletedBy'}});
  });

  it('keeps keys no part of the service reads verbatim in meta', () => {
    // Every key family of spec 3 is read and checked now (eav-*, file, feed-*, chat-*, events); a key of none stays verbatim for tools that add their own.
    const model = ok('main.Track { x-ui-hint: {Name} }', 'main.Track.Name { x-widget: text; min-length: 2 }', ':root { x-owner: music }');
    expect(model.byKey.get('main.Track')!.meta).toEqual({'x-ui-hint': '{Name}'});
    expect(model.byKey.get('main.Track')!.columns[1].meta).toEqual({'x-widget': 'text', minlength: '2'});
    expect(model.meta).toEqual({'x-owner': 'music'});
  });

  it.each([
    ['main.Customer { tenant-filter: Missing }', /tenant-filter: "Missing": the table has no column Missing/],
    ['main.Customer { soft-delete: Missing }', /the table has no column Missing/],
    ['main.Customer { soft-delete-by: DeletedBy }', /needs soft-delete/],
    ['main.Customer { auto-filter: SupportRepId }', /must read <column>:<claim>/],
    ['main.Customer { auto-filter: Nope:claim }', /no column Nope/],
    ['main.Customer { delete-type: purge }', /must be soft or hard/],
    ['main.Customer { delete-type: soft }', /needs a soft-delete column/],
    ['main.Customer.FirstName { populate: created-at }', /must be created-by or updated-by/],
    ['main.Customer.FirstName { update: sometimes }', /must be none/],
    ['main.Customer { label: Missing }', /no column Missing/],
    ['main.Customer { visibility: secret }', /must be hidden or visible/],
  ])('%s is a problem', (rule, message) => {
    expect(problems(rule)).toMatch(message);
  });

  it('collects every problem of every rule at once', () => {
    const result = build('main.T {', ':root { max-query-rows: 0 }', 'main.Customer { tenant-filter: Nope; delete-type: x }');
    expect(result.problems.map((p) => p.ruleIndex)).toEqual([0, 1, 2, 2]);
  });
});

describe('stored procedures', () => {
  it('sp-include and sp-exclude filter by regex on the name or schema.name', () => {
    const db = chinook();
    db.procedures = ['get_albums', 'get_secret', 'purge'].map((name) => ({schema: 'main', name, params: [], returnsRows: true}));
    expect(modelFrom(db, [':root { sp-include: ^get_; sp-exclude: secret$ }']).model.procedures.map((p) => p.name)).toEqual(['get_albums']);
    expect(modelFrom(db, [':root { sp-exclude: `^main\\.purge$` }']).model.procedures.map((p) => p.name)).toEqual(['get_albums', 'get_secret']);
    expect(modelFrom(db, [':root { sp-include: ^x }']).model.procedures).toEqual([]);
  });
});
