import {GraphQLError, getNamedType, isObjectType, Kind, valueFromASTUntyped} from 'graphql';
import type {DocumentNode, FieldNode, FragmentDefinitionNode, GraphQLNamedType, GraphQLObjectType, GraphQLSchema, OperationDefinitionNode, SelectionSetNode} from 'graphql';
import type {GqlModel} from '../types.js';
import {effectiveLimit} from './limits.js';

/**
 * The schema marks the fields that read rows (build-schema.ts): a page of a table's rows, with
 * `partition` when each row belongs to one parent (the root, a one-to-many link), or a single link.
 */
export const ROWS_EXTENSION = 'gqlRows';
/** `link`: a to-many link's page (`conventions: bifrost`), whose `total` counts each parent's rows. */
export type RowsMark = {table: string; partition: boolean; link?: true} | {single: true} | {aggregate: string};

export const DEFAULT_MAX_QUERY_COST = 1_000_000;
export const DEFAULT_MAX_QUERY_DEPTH = 15;

/** The rows a selection may read: the estimate, how deep it nests, and the collection that weighs most. */
interface Weight {
  rows: number;
  depth: number;
  heaviest?: {path: string; rows: number};
}

/**
 * The rows an operation can read before any SQL runs, from the limits in force (`limit`, else the
 * table's or the model's default, `-1` as `max-query-rows`, each clamped by it) and the tables'
 * sizes (row-estimates.ts): a page of L rows under P parent rows is P × min(L, table) rows, or at
 * most the table when the parents are distinct and each child has one parent (a one-to-many link
 * below the root). Every alias counts again. Refused over `max-query-cost` or deeper than
 * `max-query-depth`, naming the setting, the estimate and the field that drove it. A fragment is
 * weighed once per place it is spread into, so spreads that multiply cost nothing here.
 */
export function costRefusal(
  schema: GraphQLSchema,
  model: GqlModel,
  document: DocumentNode,
  operationName: string | null | undefined,
  variables: Record<string, unknown> | null | undefined,
): GraphQLError | undefined {
  const operation = pickOperation(document, operationName);
  const root = operation && schema.getRootType(operation.operation);
  if (!operation || !root) return undefined;
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  const weighed = new Map<string, Weight>();
  const maxCost = model.maxQueryCost ?? DEFAULT_MAX_QUERY_COST;
  const maxDepth = model.maxQueryDepth ?? DEFAULT_MAX_QUERY_DEPTH;

  const argument = (field: FieldNode, name: string): unknown => {
    const node = field.arguments?.find((each) => each.name.value === name)?.value;
    if (!node) return undefined;
    if (node.kind === Kind.VARIABLE) {
      const given = variables?.[node.name.value];
      if (given !== undefined) return given;
      const declared = operation.variableDefinitions?.find((each) => each.variable.name.value === node.name.value)?.defaultValue;
      return declared ? valueFromASTUntyped(declared) : undefined;
    }
    return valueFromASTUntyped(node);
  };

  // parents: how many rows the selection is read for; distinct: whether they are distinct rows of their table.
  const weigh = (selections: SelectionSetNode, type: GraphQLNamedType, depth: number, parents: number, distinct: boolean): Weight => {
    // Deeper than allowed: stop here, the depth alone refuses it.
    if (depth > maxDepth || !isObjectType(type)) return {rows: 0, depth};
    let total: Weight = {rows: 0, depth};
    for (const selection of selections.selections) {
      let part: Weight;
      if (selection.kind === Kind.FIELD) {
        part = weighField(selection, type, depth, parents, distinct);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        const on = selection.typeCondition ? schema.getType(selection.typeCondition.name.value) : type;
        part = on ? weigh(selection.selectionSet, on, depth, parents, distinct) : {rows: 0, depth};
      } else {
        const key = `${selection.name.value} ${depth} ${parents} ${distinct}`;
        let known = weighed.get(key);
        if (!known) {
          // Marked first: a fragment that spreads itself (refused by validation) weighs nothing here.
          weighed.set(key, {rows: 0, depth});
          const fragment = fragments.get(selection.name.value);
          const on = fragment && schema.getType(fragment.typeCondition.name.value);
          known = fragment && on ? weigh(fragment.selectionSet, on, depth, parents, distinct) : {rows: 0, depth};
          weighed.set(key, known);
        }
        part = known;
      }
      total = combine(total, part);
    }
    return total;
  };

  const weighField = (field: FieldNode, parent: GraphQLObjectType, depth: number, parents: number, distinct: boolean): Weight => {
    const definition = parent.getFields()[field.name.value];
    if (!definition) return {rows: 0, depth: depth + 1};
    const name = field.alias?.value ?? field.name.value;
    const mark = (definition.extensions as Record<string, unknown>)[ROWS_EXTENSION] as RowsMark | undefined;
    const below = (rows: number, rowsDistinct: boolean): Weight =>
      field.selectionSet ? weigh(field.selectionSet, getNamedType(definition.type), depth + 1, rows, rowsDistinct) : {rows: 0, depth: depth + 1};
    const under = (child: Weight): Weight['heaviest'] => child.heaviest && {path: `${name}.${child.heaviest.path}`, rows: child.heaviest.rows};
    if (mark && 'aggregate' in mark) return {...aggregateWeight(model, mark.aggregate, argument(field, 'value'), parents, distinct, name), depth: depth + 1};
    const page = mark && 'table' in mark ? mark : undefined;
    const table = page && model.byKey.get(page.table);
    if (!page || !table) {
      // A single link: one row per parent, no longer distinct (many tracks share a genre).
      const child = below(parents, distinct && !(mark && 'single' in mark));
      return {...child, heaviest: under(child)};
    }
    let limit: number;
    try {
      limit = effectiveLimit(model, table, argument(field, 'limit'), 'per parent');
    } catch {
      // A bad limit is the resolver's error to give, in its own words.
      limit = model.maxQueryRows;
    }
    const size = table.rowEstimate ?? Infinity;
    const partitioned = page.partition && distinct;
    const rows = partitioned ? Math.min(parents * limit, size) : parents * Math.min(limit, size);
    // A nested page's total counts every row of each parent's collection, past its limit.
    const counted = page.link && field.selectionSet && selectsField(field.selectionSet, 'total', fragments) ? counting(size, parents, partitioned, limit) : 0;
    const child = below(rows, partitioned);
    const own = rows + counted;
    const heaviest = child.heaviest && child.heaviest.rows > own ? under(child) : {path: name, rows: own};
    return {rows: own + child.rows, depth: child.depth, heaviest};
  };

  const weight = weigh(operation.selectionSet, root, 0, 1, true);
  if (weight.depth > maxDepth) {
    return refusal(`the query nests deeper than max-query-depth (${maxDepth}); set :root { max-query-depth: … } in the metadata to allow more`, {
      setting: 'max-query-depth',
      limit: maxDepth,
    });
  }
  if (weight.rows > maxCost) {
    const field = weight.heaviest?.path ?? '';
    return refusal(
      `the query may read ${shown(weight.rows)} rows, over max-query-cost (${shown(maxCost)}); most under ${field} (${shown(weight.heaviest?.rows ?? 0)}): give its collections smaller limits, or raise :root { max-query-cost: … } in the metadata`,
      {setting: 'max-query-cost', limit: maxCost, estimate: Number.isFinite(weight.rows) ? Math.round(weight.rows) : null, field},
    );
  }
  return undefined;
}

/** The rows counting a collection per parent reads: the table once under distinct parents it partitions, else the table per parent; a table of unknown size as its page. */
function counting(size: number, parents: number, partitioned: boolean, limit: number): number {
  if (!Number.isFinite(size)) return parents * limit;
  return partitioned ? size : parents * size;
}

/** Whether a selection asks for `name` directly, through inline fragments or fragment spreads. */
function selectsField(selections: SelectionSetNode, name: string, fragments: Map<string, FragmentDefinitionNode>, seen = new Set<string>()): boolean {
  return selections.selections.some((selection) => {
    if (selection.kind === Kind.FIELD) return selection.name.value === name;
    if (selection.kind === Kind.INLINE_FRAGMENT) return selectsField(selection.selectionSet, name, fragments, seen);
    if (seen.has(selection.name.value)) return false;
    seen.add(selection.name.value);
    const fragment = fragments.get(selection.name.value);
    return fragment !== undefined && selectsField(fragment.selectionSet, name, fragments, seen);
  });
}

/**
 * The rows an `_agg` reads for `parents` rows: each link of its path reads, per row it starts
 * from, the rows it reaches — every row of the target table (no limit applies to an aggregate),
 * or at most the table once when the rows it starts from are distinct and each target row has one
 * of them (a one-to-many link); a single link reads one row each. A table of unknown size weighs
 * `max-query-rows`. A path the resolver will refuse weighs what it names until it goes wrong.
 */
function aggregateWeight(model: GqlModel, tableKey: string, value: unknown, parents: number, distinct: boolean, name: string): Weight {
  let table = model.byKey.get(tableKey);
  let from = parents;
  let fromDistinct = distinct;
  let rows = 0;
  let level = value;
  while (table && level && typeof level === 'object') {
    const entries = Object.entries(level as Record<string, unknown>).filter(([key]) => key !== 'column');
    const [linkName, inner] = entries[0] ?? [];
    const link = linkName === undefined ? undefined : table.links.find((candidate) => candidate.name === linkName);
    const target = link && model.byKey.get(link.target);
    if (!link || !target) break;
    const size = target.rowEstimate ?? model.maxQueryRows;
    if (link.kind === 'single') {
      fromDistinct = false;
    } else {
      const partitioned = fromDistinct && !link.via;
      from = partitioned ? Math.min(from * size, size) : from * size;
      fromDistinct = partitioned;
    }
    rows += from;
    table = target;
    level = inner;
  }
  return {rows, depth: 0, heaviest: {path: name, rows}};
}

function combine(a: Weight, b: Weight): Weight {
  const heaviest = !a.heaviest ? b.heaviest : !b.heaviest ? a.heaviest : b.heaviest.rows > a.heaviest.rows ? b.heaviest : a.heaviest;
  return {rows: a.rows + b.rows, depth: Math.max(a.depth, b.depth), ...(heaviest ? {heaviest} : {})};
}

function pickOperation(document: DocumentNode, name: string | null | undefined): OperationDefinitionNode | undefined {
  const operations = document.definitions.filter((definition): definition is OperationDefinitionNode => definition.kind === Kind.OPERATION_DEFINITION);
  return name ? operations.find((operation) => operation.name?.value === name) : operations.length === 1 ? operations[0] : undefined;
}

function shown(value: number): string {
  return Number.isFinite(value) ? Math.round(value).toLocaleString('en') : 'unbounded';
}

function refusal(message: string, extensions: Record<string, unknown>): GraphQLError {
  return new GraphQLError(message, {extensions: {code: 'query_too_costly', ...extensions}});
}
