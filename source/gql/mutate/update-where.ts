import {WorkbenchError} from '../../core/errors.js';
import {dialectOf} from '../dialect/dialect-of.js';
import {keyOf, keyText, recorderFor, rowsByKeys} from '../events/capture.js';
import {applyRowPolicy} from '../policy/row-policy.js';
import {applyFilter} from '../query/filter-sql.js';
import type {FilterInput, GqlRequestContext, GqlTable, Row} from '../types.js';
import {toDbValues} from './columns.js';
import {populateValues} from './populate.js';
import {writeScope} from './prepare.js';
import {runStatement} from './statements.js';
import {checkedSet} from './write-policy.js';
import {transactionWithDeadline} from '../query/deadline.js';

/**
 * `<t>(updateWhere: {set, where})`: one UPDATE … SET … WHERE on the rows the filter matches,
 * inside the table's update policy (tenant, auto-filters, soft delete: the caller's filter
 * narrows, never widens). Refused unless the table has `filtered-update: enabled`, and for an
 * empty `where` (a whole-table update must be written out). A COUNT in the update's own
 * transaction enforces `filtered-update-max-affected`: above it the request fails and the
 * transaction rolls back, nothing written. Answers the count updated.
 */
export async function updateWhere(ctx: GqlRequestContext, table: GqlTable, set: Row, where: FilterInput): Promise<number> {
  if (!table.filteredUpdate) throw new WorkbenchError('invalid_argument', `${table.name} does not take updateWhere (it needs filtered-update: enabled)`);
  const scope = writeScope(ctx.model, table, ctx.user);
  // Empty is what compiles to no condition ({}, {and: []}, {status: {}}), whatever its spelling.
  const probe = ctx.db.select(ctx.db.raw('1')).where((inner) => applyFilter(inner, table, where, ctx, scope.alias));
  if (!probe.toSQL().sql.includes(' where ')) {
    throw new WorkbenchError('invalid_argument', `updateWhere on ${table.name} needs a non-empty where: write the filter out to update every row`);
  }
  const values = toDbValues(table, set, 'update-set');
  if (Object.keys(values).length === 0) throw new WorkbenchError('invalid_argument', `updateWhere on ${table.name} sets no column`);
  const policy = scope.policy('update');
  const changes = {...checkedSet(table, values, policy), ...populateValues(table, 'update', ctx.user, scope.clock)};
  const cap = table.filteredUpdateMaxAffected;

  const recorder = recorderFor(scope);
  const updated = await transactionWithDeadline(ctx, async (trx) => {
    const runner = {trx, statements: ctx.statements};
    const request = {...ctx, db: trx};
    const matching = (qb: ReturnType<typeof trx>) => {
      qb.where((inner) => applyFilter(inner, table, where, request, scope.alias));
      qb.where((inner) => applyRowPolicy(inner, policy, scope.alias));
      return qb;
    };
    const counted = await runStatement<Array<Record<string, unknown>>>(runner, matching(trx(scope.ref)).count({matched: '*'}));
    const matched = Number(counted[0]?.matched ?? 0);
    if (matched > cap) {
      throw new WorkbenchError(
        'invalid_argument',
        `updateWhere on ${table.name} matches ${matched} rows, over its filtered-update-max-affected of ${cap}: nothing was updated; narrow the filter`,
      );
    }
    if (matched === 0) return 0;
    if (!recorder?.emits('update')) return runStatement<number>(runner, matching(trx(scope.ref)).update(changes));
    // With events: the matched rows (at most the cap) read and locked first, updated by key, read again.
    const before = await runStatement<Row[]>(runner, dialectOf(scope.model.provider).lockForUpdate(matching(trx(scope.ref)).select(`${scope.alias}.*`)));
    const count = await runStatement<number>(runner, matching(trx(scope.ref)).update(changes));
    const keys = before.map((row) => keyOf(table, row));
    const after = recorder.wantsImages ? await rowsByKeys(runner, scope, keys, undefined, false) : undefined;
    for (const row of before) {
      const key = keyOf(table, row);
      recorder.add('update', key, recorder.wantsImages ? row : undefined, after?.get(keyText(table, key)), row);
    }
    await recorder.flush(runner);
    return count;
  });
  if (recorder && recorder.rows.length > 0) ctx.onEvents?.();
  return updated;
}
