// Several actions on one key in a batch resolve to their sequential net effect before any SQL
// (last-wins), or refuse the batch (reject): every pair of operations, on hard- and soft-delete tables.
import {describe, expect, it} from 'vitest';
import {collapseBatch} from '../../../source/gql/mutate/batch-collapse.js';
import type {WriteAction} from '../../../source/gql/mutate/prepare.js';
import type {GqlColumn, GqlTable} from '../../../source/gql/types.js';

const column = (name: string, extra: Partial<GqlColumn> = {}): GqlColumn => ({
  dbName: name,
  name,
  kind: 'string',
  dataType: 'text',
  nullable: true,
  isPrimaryKey: false,
  isIdentity: false,
  hasDefault: false,
  hidden: false,
  readOnly: false,
  meta: {},
  ...extra,
});

function tableOf(extra: Partial<GqlTable> = {}): GqlTable {
  return {
    key: 'main.t',
    schema: 'main',
    dbName: 't',
    name: 't',
    columns: [column('id', {isPrimaryKey: true, kind: 'int'}), column('a'), column('b'), column('deleted_at')],
    primaryKey: ['id'],
    links: [],
    hidden: false,
    isView: false,
    autoFilters: [],
    deleteType: 'hard',
    bulkBatchThreshold: 50,
    batchDuplicatePolicy: 'last-wins',
    filteredUpdate: false,
    filteredUpdateMaxAffected: 100,
    meta: {},
    ...extra,
  };
}

const hard = tableOf();
const soft = tableOf({softDelete: {column: 'deleted_at'}, deleteType: 'soft'});
const insert = (values: Record<string, unknown>): WriteAction => ({op: 'insert', values: {id: 1, ...values}});
const update = (values: Record<string, unknown>): WriteAction => ({op: 'update', values: {id: 1, ...values}});
const upsert = (values: Record<string, unknown>): WriteAction => ({op: 'upsert', values: {id: 1, ...values}});
const del: WriteAction = {op: 'delete', values: {id: 1}};

describe('last-wins: each pair on one key', () => {
  it.each([
    ['insert + update → one insert of the merged values', hard, [insert({a: 1, b: 1}), update({b: 2})], [insert({a: 1, b: 2})]],
    ['insert + upsert → one insert (the row exists by then)', hard, [insert({a: 1}), upsert({b: 2})], [insert({a: 1, b: 2})]],
    ['insert + delete → nothing', hard, [insert({a: 1}), del], []],
    ['insert + soft delete → the insert, stamped deleted', soft, [insert({a: 1}), del], [{...insert({a: 1}), softDeleted: true}]],
    ['update + insert → the insert (it fails on an existing row either way)', hard, [update({a: 1}), insert({b: 2})], [insert({b: 2})]],
    ['update + update → one update, later columns winning', hard, [update({a: 1, b: 1}), update({b: 2})], [update({a: 1, b: 2})]],
    ['update + delete → the delete', hard, [update({a: 1}), del], [del]],
    ['update + soft delete → the delete', soft, [update({a: 1}), del], [del]],
    ['upsert + update → one upsert, merged', hard, [upsert({a: 1}), update({b: 2})], [upsert({a: 1, b: 2})]],
    ['upsert + upsert → one upsert, merged', hard, [upsert({a: 1, b: 1}), upsert({b: 2})], [upsert({a: 1, b: 2})]],
    ['upsert + delete → the delete', hard, [upsert({a: 1}), del], [del]],
    ['delete + insert → the row replaced: delete, then insert', hard, [del, insert({a: 1})], [del, insert({a: 1})]],
    ['delete + insert on a soft-delete table → both run (the insert then fails on the key, as in order)', soft, [del, insert({a: 1})], [del, insert({a: 1})]],
    ['delete + update → the delete', hard, [del, update({a: 1})], [del]],
    ['delete + upsert → delete, then an insert', hard, [del, upsert({a: 1})], [del, insert({a: 1})]],
    ['delete + upsert on a soft-delete table → the delete (an upsert never touches a deleted row)', soft, [del, upsert({a: 1})], [del]],
    ['delete + delete → one delete', hard, [del, del], [del]],
    ['delete, insert, update → delete, insert merged', hard, [del, insert({a: 1}), update({b: 2})], [del, insert({a: 1, b: 2})]],
    ['delete, insert, delete → the delete', hard, [del, insert({a: 1}), del], [del]],
    ['insert, delete, insert → the last insert', hard, [insert({a: 1}), del, insert({a: 2})], [insert({a: 2})]],
  ] as Array<[string, GqlTable, WriteAction[], WriteAction[]]>)('%s', (_name, table, actions, expected) => {
    expect(collapseBatch(table, actions)).toEqual(expected);
  });

  it.each([
    ['insert + insert', hard, [insert({a: 1}), insert({a: 2})], /two inserts/],
    ['upsert + insert', hard, [upsert({a: 1}), insert({a: 2})], /two inserts/],
    ['update + upsert', hard, [update({a: 1}), upsert({a: 2})], /whether the row exists/],
    ['upsert + soft delete', soft, [upsert({a: 1}), del], /whether the row exists/],
    ['delete, insert, insert', hard, [del, insert({a: 1}), insert({a: 2})], /two inserts/],
  ] as Array<[string, GqlTable, WriteAction[], RegExp]>)('%s is refused', (_name, table, actions, why) => {
    expect(() => collapseBatch(table, actions)).toThrow(why);
  });

  it('keeps other keys in the client’s order, a collapsed key at its last position, and keyless inserts apart', () => {
    const actions: WriteAction[] = [
      {op: 'update', values: {id: 1, a: 1}},
      {op: 'insert', values: {a: 'no key'}},
      {op: 'update', values: {id: 2, a: 2}},
      {op: 'insert', values: {a: 'no key'}},
      {op: 'update', values: {id: 1, b: 1}},
    ];
    expect(collapseBatch(hard, actions)).toEqual([
      {op: 'insert', values: {a: 'no key'}},
      {op: 'update', values: {id: 2, a: 2}},
      {op: 'insert', values: {a: 'no key'}},
      {op: 'update', values: {id: 1, a: 1, b: 1}},
    ]);
  });

  it('collapses composite keys only when every part matches', () => {
    const table = tableOf({columns: [column('x', {isPrimaryKey: true}), column('y', {isPrimaryKey: true}), column('a')], primaryKey: ['x', 'y']});
    const actions: WriteAction[] = [
      {op: 'update', values: {x: 'p', y: 'q', a: 1}},
      {op: 'update', values: {x: 'p', y: 'r', a: 2}},
      {op: 'update', values: {x: 'p', y: 'q', a: 3}},
    ];
    expect(collapseBatch(table, actions)).toEqual([
      {op: 'update', values: {x: 'p', y: 'r', a: 2}},
      {op: 'update', values: {x: 'p', y: 'q', a: 3}},
    ]);
  });
});

describe('reject', () => {
  it('refuses any key named twice, with the positions', () => {
    const table = tableOf({batchDuplicatePolicy: 'reject'});
    expect(() => collapseBatch(table, [update({a: 1}), {op: 'update', values: {id: 2}}, del])).toThrow(
      /actions 1 and 3 address the same key and batch-duplicate-policy is reject; nothing was written/,
    );
    expect(collapseBatch(table, [update({a: 1}), {op: 'update', values: {id: 2, a: 1}}])).toHaveLength(2);
  });
});
