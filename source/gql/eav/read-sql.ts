import type {Knex} from 'knex';
import {WorkbenchError} from '../../core/errors.js';
import {dialectOf} from '../dialect/dialect-of.js';
import {applyOperator, columnExpression, COMPARISON_OPERATORS, nextAlias, readPolicy, STRING_OPERATORS, tableRef} from '../query/sql-parts.js';
import type {GqlColumn, GqlRequestContext, GqlTable, TableEav} from '../types.js';
import {EAV_FILTER_FIELD} from './fields.js';
import {checkedValue, isTextKind} from './values.js';

/** The parent's attributes config, its meta table and the value column, or an internal error when the model lost them. */
export function eavParts(ctx: GqlRequestContext, table: GqlTable): {eav: TableEav; meta: GqlTable; value: GqlColumn} {
  const eav = table.eav;
  const meta = eav ? ctx.model.byKey.get(eav.table) : undefined;
  const value = meta?.columns.find((column) => column.dbName === eav?.value);
  if (!eav || !meta || !value) throw new WorkbenchError('internal', `${table.name} has no EAV meta table in the model`);
  return {eav, meta, value};
}

/**
 * The meta rows of the parent row aliased `parentAlias`: FROM the meta table, tied to the parent's
 * one key column, inside the meta table's own read policy (a meta table with a tenant filter or a
 * soft-delete column of its own keeps it). The parent's policy is the enclosing statement's.
 */
function metaRows(ctx: GqlRequestContext, table: GqlTable, parentAlias: string): {qb: Knex.QueryBuilder; alias: string; eav: TableEav; value: GqlColumn} {
  const {eav, meta, value} = eavParts(ctx, table);
  const alias = nextAlias(ctx, 'a');
  const qb = ctx.db.from(tableRef(ctx.model, meta, alias)).whereRaw('?? = ??', [`${alias}.${eav.fk}`, `${parentAlias}.${table.primaryKey[0]}`]);
  for (const predicate of readPolicy(ctx, meta).predicates) predicate.apply(qb, alias);
  return {qb, alias, eav, value};
}

/**
 * One correlated aggregate per parent row, inside the root field's one statement: `_meta` as a
 * JSON object (attribute → value), `_attributes` as a JSON list of `{key, value}` ordered by key.
 * Returned as the SQL of one pair of the row object (`?` bound to the subquery).
 */
export function attributesSubquery(ctx: GqlRequestContext, table: GqlTable, shape: 'map' | 'list', parentAlias: string): Knex.QueryBuilder | Knex.Raw {
  const dialect = dialectOf(ctx.model.provider);
  const {qb, alias, eav, value} = metaRows(ctx, table, parentAlias);
  const attributes = {
    rows: qb,
    keyRef: `${alias}.${eav.key}`,
    valueRef: `${alias}.${eav.value}`,
    valueSql: columnExpression(dialect, value),
    innerAlias: () => nextAlias(ctx, 's'),
  };
  return shape === 'map' ? dialect.attributeObjectAgg(ctx.db, attributes) : dialect.attributeListAgg(ctx.db, attributes);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function fail(message: string): never {
  throw new WorkbenchError('invalid_argument', message);
}

/** The operators an attribute takes: the comparison operators, and the pattern ones when values are text (as string columns have). */
export function attributeOperators(table: GqlTable): readonly string[] {
  return table.eav && isTextKind(table.eav.valueKind) ? [...COMPARISON_OPERATORS, ...STRING_OPERATORS] : COMPARISON_OPERATORS;
}

/** An operand checked against the value column's scalar (lists for `_in`, `_nin`, `_between`). */
function checkedOperand(table: GqlTable, attribute: string, op: string, operand: unknown): unknown {
  const kind = table.eav!.valueKind;
  const what = `${EAV_FILTER_FIELD}.${attribute}.${op} on ${table.name}`;
  if (op === '_null') return operand;
  if (op === '_in' || op === '_nin' || op === '_between') {
    if (!Array.isArray(operand)) fail(`${what} takes a list`);
    return operand.map((item) => checkedValue(kind, item, what));
  }
  if (operand === null) return null;
  if (STRING_OPERATORS.includes(op as never)) return typeof operand === 'string' ? operand : fail(`${what} takes a string`);
  return checkedValue(kind, operand, what);
}

/**
 * `_attr: {<attribute>: {<op>: value, …}, …}` on the parent: each attribute is `EXISTS (a meta row
 * of this parent row with that key whose value matches every operator)`, the operators those of a
 * string column (or of the value column's kind). `_null: true` is the attribute's absence (`NOT
 * EXISTS`), `_null: false` its presence. The meta rows are read inside their table's policy, the
 * parent row inside its own (the enclosing statement's), so nothing its user could not read matches.
 */
export function applyAttributeFilter(qb: Knex.QueryBuilder, table: GqlTable, filter: unknown, ctx: GqlRequestContext, alias: string): void {
  if (!isRecord(filter)) fail(`${EAV_FILTER_FIELD} on ${table.name} takes an object: {<attribute>: {_eq: …}}`);
  const allowed = attributeOperators(table);
  for (const [attribute, ops] of Object.entries(filter)) {
    if (ops === undefined || ops === null) continue;
    if (!isRecord(ops)) fail(`${EAV_FILTER_FIELD}.${attribute} on ${table.name} takes an object of operators like {_eq: …}`);
    const unknown = Object.keys(ops).filter((op) => !allowed.includes(op));
    if (unknown.length > 0) fail(`unknown attribute operator ${unknown.join(', ')} on ${EAV_FILTER_FIELD}.${attribute} of ${table.name}: use ${allowed.join(', ')}`);
    const {qb: rows, alias: metaAlias, eav, value} = metaRows(ctx, table, alias);
    rows.select(ctx.db.raw('1')).where(`${metaAlias}.${eav.key}`, attribute);
    let absent = false;
    for (const [op, operand] of Object.entries(ops)) {
      if (operand === undefined) continue;
      if (op === '_null') {
        if (typeof operand !== 'boolean') fail(`${EAV_FILTER_FIELD}.${attribute}._null on ${table.name} takes true (absent) or false (present)`);
        absent = operand;
        continue;
      }
      applyOperator(dialectOf(ctx.model.provider), rows, table, value, `${metaAlias}.${eav.value}`, op, checkedOperand(table, attribute, op, operand));
    }
    if (absent) qb.whereNotExists(rows);
    else qb.whereExists(rows);
  }
}
