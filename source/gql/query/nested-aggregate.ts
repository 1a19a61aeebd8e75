import {WorkbenchError} from '../../core/errors.js';
import type {ColumnKind, GqlColumn, GqlLink, GqlModel, GqlTable} from '../types.js';
import {targetTable, visibleColumn} from '../model/lookup.js';

/**
 * The per-row `_agg(operation:, value:)` of upstream's current conventions (`conventions:
 * bifrost`): one number computed over the rows a path of links reaches from this row —
 * `_agg(value: {products: {column: price}}, operation: Sum)` on a category is the sum of its
 * products' prices. Planned here from the model alone; json-sql.ts writes it as a correlated
 * subquery of the row's own statement, each table on the path under its read policy.
 */
export const NESTED_AGGREGATE_OPERATIONS = ['Count', 'Sum', 'Avg', 'Max', 'Min'] as const;
export type NestedAggregateOperation = (typeof NESTED_AGGREGATE_OPERATIONS)[number];

export const AGG_DESCRIPTION =
  '_agg reads: name one link per level (`{products: {orderItems: {column: quantity}}}`) and end with `column`. Count counts its non-null values; Sum, Avg, Min and Max need a numeric column.';

const NUMERIC: ReadonlySet<ColumnKind> = new Set(['int', 'bigint', 'float', 'decimal']);

export interface AggPlan {
  kind: 'agg';
  key: string;
  operation: NestedAggregateOperation;
  /** The links followed from the row, each with the table it reaches; at least one. */
  path: Array<{link: GqlLink; table: GqlTable}>;
  /** The column of the last table the operation reads. */
  column: GqlColumn;
}

const refuse = (message: string): never => {
  throw new WorkbenchError('invalid_argument', message);
};

/** The plan of one `_agg` field of a `table` row, from its coerced arguments. */
export function aggPlan(model: GqlModel, table: GqlTable, key: string, args: Record<string, unknown>): AggPlan {
  const operation = args.operation as NestedAggregateOperation;
  if (!NESTED_AGGREGATE_OPERATIONS.includes(operation)) refuse(`_agg: unknown operation ${String(operation)}; one of ${NESTED_AGGREGATE_OPERATIONS.join(', ')}`);
  const path: AggPlan['path'] = [];
  const written: string[] = [];
  let at = table;
  let value = args.value as Record<string, unknown> | null | undefined;
  for (;;) {
    const entries = Object.entries(value ?? {}).filter(([, given]) => given !== undefined && given !== null);
    const where = written.length === 0 ? `on ${table.name}` : `at ${written.join('.')}`;
    if (entries.length !== 1)
      refuse(`_agg ${where}: name exactly one link or column per level, not ${entries.length === 0 ? 'none' : entries.map(([name]) => name).join(' and ')}`);
    const [name, inner] = entries[0] as [string, unknown];
    if (name === 'column') {
      if (path.length === 0) refuse(`_agg on ${table.name} reads through a link: write {<link>: {column: …}}, not a column of the row itself`);
      const column = visibleColumn(at, String(inner)) ?? refuse(`_agg: ${at.name} has no column ${String(inner)}`);
      if (operation !== 'Count' && !NUMERIC.has(column.kind))
        refuse(`_agg ${operation} needs a numeric column; ${at.name}.${column.name} is ${column.kind} (Count counts any column)`);
      return {kind: 'agg', key, operation, path, column};
    }
    const link = at.links.find((candidate) => candidate.name === name) ?? refuse(`_agg: ${at.name} has no link ${name}`);
    at = targetTable(model, link);
    path.push({link, table: at});
    written.push(name);
    value = inner as Record<string, unknown>;
  }
}
