// Selector shapes (spec 3 "Selector shape" and rule 5) and rule order (rule 8): last writer wins,
// join and many-to-many accumulate.
import {describe, expect, it} from 'vitest';
import {parseRules} from '../../../source/gql/metadata/parse-rules.js';
import {resolveMetadata} from '../../../source/gql/metadata/resolve-metadata.js';
import {matchesPattern} from '../../../source/gql/metadata/selector.js';
import type {DbModel} from '../../../source/gql/types.js';
import {chinook, column, table} from './chinook-db-model.js';

function db(): DbModel {
  const model = chinook();
  model.tables.push(
    table('orders', [column('id', 'int'), column('tenant_id', 'int'), column('created_by')], ['id'], [], 'sales'),
    table('order_lines', [column('id', 'int'), column('qty', 'int')], ['id'], [], 'sales'),
    table('a.b', [column('x')], [], [], 'odd'),
    table('aXb', [column('x')], [], [], 'odd'),
  );
  return model;
}

function resolve(...rules: string[]) {
  const parsed = parseRules(rules);
  expect(parsed.problems).toEqual([]);
  return resolveMetadata(parsed.rules, db());
}

const tablesWith = (resolved: ReturnType<typeof resolve>, key: string) => [...resolved.tables].filter(([, props]) => key in props).map(([name]) => name);
const columnsWith = (resolved: ReturnType<typeof resolve>, key: string) => [...resolved.columns].filter(([, props]) => key in props).map(([name]) => name);

describe('selectors', () => {
  it('schema.table: one table, case-insensitive, keyed by the database spelling', () => {
    expect(tablesWith(resolve('MAIN.track { label: Name }'), 'label')).toEqual(['main.Track']);
  });

  it('schema.table.column: one column', () => {
    expect(columnsWith(resolve('main.Track.Name { update: none }'), 'update')).toEqual(['main.Track.Name']);
  });

  it('schema.*: every table of a schema', () => {
    expect(tablesWith(resolve('sales.* { default-limit: 5 }'), 'default-limit')).toEqual(['sales.orders', 'sales.order_lines']);
  });

  it('schema.*.column: a column on every table of the schema', () => {
    expect(columnsWith(resolve('sales.*.id { update: none }'), 'update')).toEqual(['sales.orders.id', 'sales.order_lines.id']);
  });

  it('*.*: every table', () => {
    expect(tablesWith(resolve('*.* { x: y }'), 'x')).toHaveLength(db().tables.length);
  });

  it('schema.prefix*: tables starting with the prefix', () => {
    expect(tablesWith(resolve('main.Play* { x: y }'), 'x')).toEqual(['main.Playlist', 'main.PlaylistTrack']);
  });

  it('schema.*.prefix*: columns starting with the prefix on every table', () => {
    expect(columnsWith(resolve('main.*.First* { x: y }'), 'x')).toEqual(['main.Customer.FirstName']);
  });

  it('schema.*|has(column): tables having that column', () => {
    expect(tablesWith(resolve('*.*|has(tenant_id) { tenant-filter: tenant_id }'), 'tenant-filter')).toEqual(['sales.orders']);
    expect(tablesWith(resolve('main.*|has(TenantId)|has(DeletedAt) { x: y }'), 'x')).toEqual(['main.Customer']);
  });

  it(':root targets the model', () => {
    expect(resolve(':root { max-query-rows: 7 }').model).toEqual({'max-query-rows': '7'});
  });

  it('5: only * is a wildcard; regex metacharacters are literal', () => {
    expect(tablesWith(resolve('odd.a.b { x: y }'), 'x')).toEqual([]); // three parts: a column selector on table "a"
    expect(matchesPattern('a.b', 'aXb')).toBe(false);
    expect(matchesPattern('a.b', 'a.b')).toBe(true);
    expect(matchesPattern('o+', 'oo')).toBe(false);
    expect(matchesPattern('[ab]', 'a')).toBe(false);
    expect(matchesPattern('*_lines', 'order_lines')).toBe(true);
    expect(matchesPattern('*a*b*', 'xxaxxbxx')).toBe(true);
    expect(matchesPattern('*a*b', 'xxaxxbxxc')).toBe(false);
  });

  it('a selector matching nothing resolves to nothing', () => {
    expect(resolve('nope.* { x: y }').tables.size).toBe(0);
  });
});

describe('rule order (rule 8)', () => {
  it('later rules override earlier ones for the same target', () => {
    const resolved = resolve('main.* { default-limit: 10; label: Name }', 'main.Track { default-limit: 20 }');
    expect(resolved.tables.get('main.Track')).toEqual({'default-limit': '20', label: 'Name'});
    expect(resolved.tables.get('main.Album')).toEqual({'default-limit': '10', label: 'Name'});
  });

  it('join and many-to-many accumulate comma-joined', () => {
    const resolved = resolve('main.Playlist { many-to-many: Track:PlaylistTrack }', 'main.Playlist { many-to-many: Genre:X; join: A(b=c) }', 'main.* { join: D(e=f) }');
    expect(resolved.tables.get('main.Playlist')).toEqual({'many-to-many': 'Track:PlaylistTrack, Genre:X', join: 'A(b=c), D(e=f)'});
  });

  it('a rule reaching one target through two selectors applies once', () => {
    expect(resolve('main.Track, main.T* { join: A(b=c) }').tables.get('main.Track')).toEqual({join: 'A(b=c)'});
  });

  it('remembers which rule wrote each property', () => {
    const resolved = resolve('main.* { label: Name }', 'main.Track { label: TrackId }');
    expect(resolved.sources!.get('main.Track\u0000label')).toMatchObject({index: 1});
    expect(resolved.sources!.get('main.Album\u0000label')).toMatchObject({index: 0});
  });
});
