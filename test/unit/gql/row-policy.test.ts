import knex from 'knex';
import {describe, expect, it} from 'vitest';
import {applyRowPolicy, rowPolicy} from '../../../source/gql/policy/row-policy.js';
import type {GqlModel, GqlTable, UserContext} from '../../../source/gql/types.js';
import {gqlColumn, gqlModel, gqlTable} from '../../helpers/gql-model.js';

const table = (overrides: Partial<GqlTable>): GqlTable => gqlTable('main', 'tasks', [], {primaryKey: ['id'], ...overrides});

const model = (overrides: Partial<GqlModel> = {}): GqlModel => gqlModel('sqlite', 'main', [], overrides);

const user = (claims: Record<string, unknown>, roles: string[] = []): UserContext => ({claims, roles, anonymous: false});
const sql = (build: (qb: knex.Knex.QueryBuilder) => void) => {
  const qb = knex({client: 'better-sqlite3', useNullAsDefault: true}).from('tasks as t').select('t.id');
  build(qb);
  return qb.toSQL().toNative();
};

describe('rowPolicy', () => {
  it('filters a tenant table by the tenant claim and pins it for writes', () => {
    const policy = rowPolicy(model(), table({tenantColumn: 'tenant_id'}), user({tenant_id: 7}), 'read');
    expect(policy.denied).toBeUndefined();
    expect(policy.forcedValues).toEqual({tenant_id: 7});
    expect(sql((qb) => applyRowPolicy(qb, policy, 't'))).toEqual({sql: 'select `t`.`id` from `tasks` as `t` where `t`.`tenant_id` = ?', bindings: [7]});
  });

  it('reads the tenant from the configured context key', () => {
    const policy = rowPolicy(model({tenantContextKey: 'org'}), table({tenantColumn: 'org_id'}), user({org: 'acme', tenant_id: 'other'}), 'update');
    expect(policy.predicates.map((p) => [p.sql, p.bindings])).toEqual([['org_id = ?', ['acme']]]);
  });

  it('fails closed when the tenant claim is missing, null, a list or an object', () => {
    for (const claims of [{}, {tenant_id: null}, {tenant_id: [1, 2]}, {tenant_id: {id: 1}}]) {
      expect(rowPolicy(model(), table({tenantColumn: 'tenant_id'}), user(claims), 'read').denied).toMatch(/tenant_id/);
    }
  });

  it('fails closed on a claim that cannot name a row: empty, or the wrong shape for an integer column', () => {
    const ints = gqlTable('main', 'tasks', [gqlColumn('tenant_id', 'int'), gqlColumn('owner', 'string')], {tenantColumn: 'tenant_id'});
    for (const tenant of ['', '  ', '1abc', '1.5', 1.5, true]) {
      expect(rowPolicy(model(), ints, user({tenant_id: tenant}), 'read').denied, JSON.stringify(tenant)).toMatch(/"tenant_id" claim is not a value of tenant_id/);
    }
    expect(rowPolicy(model(), ints, user({tenant_id: '12'}), 'read').predicates.map((p) => p.bindings)).toEqual([['12']]);
    expect(rowPolicy(model(), ints, user({tenant_id: -3}), 'read').denied).toBeUndefined();
    // A text column takes text only (MySQL compares '12abc' with 12 as equal).
    const texts = gqlTable('main', 'tasks', [gqlColumn('tenant_id', 'string')], {tenantColumn: 'tenant_id'});
    for (const tenant of [12, true]) expect(rowPolicy(model(), texts, user({tenant_id: tenant}), 'read').denied, JSON.stringify(tenant)).toMatch(/not a value of tenant_id/);
    expect(rowPolicy(model(), texts, user({tenant_id: 'acme'}), 'read').denied).toBeUndefined();
    const owned = gqlTable('main', 'tasks', [gqlColumn('owner', 'string'), gqlColumn('region', 'int')], {
      autoFilters: [
        {column: 'owner', claim: 'sub'},
        {column: 'region', claim: 'regions'},
      ],
    });
    expect(rowPolicy(model(), owned, user({sub: '', regions: [1]}), 'read').denied).toMatch(/"sub" claim, whose value is not a value of owner/);
    expect(rowPolicy(model(), owned, user({sub: 'ann', regions: [1, 'x']}), 'read').denied).toMatch(/"regions" claim/);
    expect(rowPolicy(model(), owned, user({sub: 'ann', regions: [1, '2']}), 'read').denied).toBeUndefined();
  });

  it('applies auto-filters unless the user holds the bypass role', () => {
    const t = table({autoFilters: [{column: 'owner', claim: 'sub'}]});
    const m = model({autoFilterBypassRole: 'auditor'});
    expect(rowPolicy(m, t, user({sub: 'ann'}), 'read').predicates.map((p) => p.sql)).toEqual(['owner = ?']);
    expect(rowPolicy(m, t, user({}, ['auditor']), 'read')).toEqual({predicates: [], forcedValues: {}});
    expect(rowPolicy(m, t, user({}), 'read').denied).toMatch(/sub/);
  });

  it('matches a list claim with in (…) and does not pin it', () => {
    const policy = rowPolicy(model(), table({autoFilters: [{column: 'region', claim: 'regions'}]}), user({regions: ['eu', 'us']}), 'read');
    expect(sql((qb) => applyRowPolicy(qb, policy, 't')).sql).toBe('select `t`.`id` from `tasks` as `t` where `t`.`region` in (?, ?)');
    expect(policy.forcedValues).toEqual({});
  });

  it('hides soft-deleted rows from every operation but insert', () => {
    const t = table({softDelete: {column: 'deleted_at'}, deleteType: 'soft'});
    for (const op of ['read', 'update', 'delete'] as const) expect(rowPolicy(model(), t, user({}), op).predicates.map((p) => p.sql)).toEqual(['deleted_at is null']);
    expect(rowPolicy(model(), t, user({}), 'insert').predicates).toEqual([]);
  });

  it('binds claim values, never splices them into SQL', () => {
    const evil = "1' or '1'='1";
    const policy = rowPolicy(model(), table({tenantColumn: 'tenant_id'}), user({tenant_id: evil}), 'read');
    const native = sql((qb) => applyRowPolicy(qb, policy, 't'));
    expect(native.sql).not.toContain(evil);
    expect(native.bindings).toEqual([evil]);
  });
});
