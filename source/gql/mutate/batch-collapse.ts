import {WorkbenchError} from '../../core/errors.js';
import type {GqlTable, Row} from '../types.js';
import {keyColumns} from './columns.js';
import {deletesSoftly} from './populate.js';
import type {WriteAction} from './prepare.js';
import {mergedAttributes} from '../eav/fields.js';

/**
 * The key an action addresses, as text, or undefined for an action with no static identity (an
 * insert whose key the database fills). Values compare as text: the GraphQL input types give one
 * column one type, so 7 and "7" never meet.
 */
function identity(table: GqlTable, action: WriteAction): string | undefined {
  const parts: string[] = [];
  for (const column of keyColumns(table)) {
    const value = action.values[column.name];
    if (value === undefined || value === null) return undefined;
    parts.push(`${typeof value}:${String(value)}`);
  }
  return JSON.stringify(parts);
}

const merged = (op: WriteAction['op'], earlier: WriteAction, later: WriteAction): WriteAction => {
  const action: WriteAction = {op, values: {...earlier.values, ...later.values, ...mergedAttributes(earlier.values, later.values)}};
  if (earlier.softDeleted || later.softDeleted) action.softDeleted = true;
  return action;
};

function refuse(table: GqlTable, why: string): never {
  throw new WorkbenchError('invalid_argument', `batch on ${table.name}: ${why}; nothing was written`);
}

/**
 * The sequential net effect of `later` applied after `earlier` on one row, as the actions that
 * produce it (none, one, or a delete then an insert: a row replaced). A pair whose effect depends
 * on whether the row existed before the batch, or that would fail when run in order, is refused.
 *
 *   earlier \ later | insert              | update          | upsert               | delete
 *   insert          | refused (duplicate) | insert(merged)  | insert(merged)       | nothing (soft: insert stamped deleted)
 *   update          | insert              | update(merged)  | refused (existence)  | delete
 *   upsert          | refused (duplicate) | upsert(merged)  | upsert(merged)       | delete (soft: refused, existence)
 *   delete          | delete, insert      | delete          | delete, insert (soft: delete) | delete
 */
export function collapsePair(table: GqlTable, earlier: WriteAction, later: WriteAction): WriteAction[] {
  const soft = deletesSoftly(table);
  switch (`${earlier.op}+${later.op}`) {
    case 'insert+insert':
    case 'upsert+insert':
      return refuse(table, 'two inserts of one key (the second would fail on the key)');
    case 'insert+update':
    case 'insert+upsert':
      return [merged('insert', earlier, later)];
    case 'insert+delete':
      return soft ? [{...earlier, softDeleted: true}] : [];
    case 'update+insert':
      // Run in order, an existing row fails the insert and a missing one ignores the update: the insert alone does both.
      return [later];
    case 'update+update':
      return [merged('update', earlier, later)];
    case 'update+upsert':
      return refuse(table, 'an update then an upsert of one key (the net effect depends on whether the row exists)');
    case 'upsert+update':
    case 'upsert+upsert':
      return [merged('upsert', earlier, later)];
    case 'upsert+delete':
      return soft ? refuse(table, 'an upsert then a soft delete of one key (the net effect depends on whether the row exists)') : [later];
    case 'delete+insert':
      return [earlier, later];
    case 'delete+upsert':
      // A soft-deleted row still holds the key and an upsert never touches a deleted row: the delete alone.
      return soft ? [earlier] : [earlier, {op: 'insert', values: later.values}];
    default:
      // delete+update, update+delete, delete+delete: the delete decides.
      return [earlier.op === 'delete' ? earlier : later];
  }
}

/**
 * Resolves several actions on one key before any SQL runs. `last-wins` folds each key's actions
 * into their sequential net effect (the intermediates never run); `reject` refuses a batch that
 * names any key twice. Survivors keep the position of the last action on their key, so the
 * order of the rest is the client's.
 */
export function collapseBatch(table: GqlTable, actions: WriteAction[]): WriteAction[] {
  const slots: Array<{order: number; actions: WriteAction[]}> = [];
  const byKey = new Map<string, (typeof slots)[number]>();
  actions.forEach((action, order) => {
    const key = identity(table, action);
    const slot = key === undefined ? undefined : byKey.get(key);
    if (!slot) {
      const fresh = {order, actions: [action]};
      slots.push(fresh);
      if (key !== undefined) byKey.set(key, fresh);
      return;
    }
    if (table.batchDuplicatePolicy === 'reject') refuse(table, `actions ${slot.order + 1} and ${order + 1} address the same key and batch-duplicate-policy is reject`);
    // Only a replaced row (delete, insert) holds two actions; the later action meets its last one.
    const last = slot.actions[slot.actions.length - 1];
    const head = slot.actions.slice(0, -1);
    slot.actions = [...head, ...(last ? collapsePair(table, last, action) : [action])];
    slot.order = order;
  });
  return slots
    .sort((a, b) => a.order - b.order)
    .flatMap((slot) => slot.actions)
    .map((action): WriteAction => ({...action, values: {...action.values} as Row}));
}
