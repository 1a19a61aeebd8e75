import {WorkbenchError} from '../../core/errors.js';
import type {GqlColumn, GqlLink, GqlModel, GqlTable} from '../types.js';

/** A column GraphQL may name: present and not hidden. */
export function visibleColumn(table: GqlTable, name: string): GqlColumn | undefined {
  return table.columns.find((column) => column.name === name && !column.hidden);
}

export function targetTable(model: GqlModel, link: GqlLink): GqlTable {
  const target = model.byKey.get(link.target);
  if (!target) throw new WorkbenchError('internal', `link ${link.name} points at ${link.target}, which the model does not have`);
  return target;
}
