import {GraphQLIncludeDirective, GraphQLSkipDirective, Kind, getArgumentValues, getDirectiveValues, getNamedType, isObjectType} from 'graphql';
import type {FieldNode, FragmentDefinitionNode, GraphQLField, GraphQLObjectType, SelectionSetNode} from 'graphql';
import {WorkbenchError} from '../../core/errors.js';
import {eavFieldShape} from '../eav/fields.js';
import type {FilterInput, GqlColumn, GqlLink, GqlModel, GqlTable} from '../types.js';
import {targetTable, visibleColumn} from '../model/lookup.js';
import {effectiveLimit} from './limits.js';
import {aggPlan, type AggPlan} from './nested-aggregate.js';

/**
 * The query model: what one root field asks of the database, read off the GraphQL selection
 * (fragments, aliases, variables, @skip/@include resolved) before any SQL is written. Every key is
 * the response key (the alias when there is one), so the rows the database builds are the response.
 */
export interface ColumnPlan {
  kind: 'column';
  key: string;
  column: GqlColumn;
}

export interface SinglePlan {
  kind: 'single';
  key: string;
  link: GqlLink;
  table: GqlTable;
  fields: FieldPlan[];
}

export interface ManyPlan {
  kind: 'many';
  key: string;
  link: GqlLink;
  collection: CollectionPlan;
  /** Set when the link is a page (`conventions: bifrost`): the page's fields asked for, by response key. */
  page?: PageKey[];
}

/** One field of a page as asked for: its response key and which of the page's fields it is. */
export interface PageKey {
  key: string;
  field: 'data' | 'total' | 'offset' | 'limit';
}

/** A parent's EAV attributes (source/gql/eav/): `_meta` as a map, `_attributes` as a list. */
export interface EavPlan {
  kind: 'eav';
  key: string;
  table: GqlTable;
  shape: 'map' | 'list';
}

export type FieldPlan = ColumnPlan | SinglePlan | ManyPlan | EavPlan | AggPlan;

export interface SortKey {
  column: string; // db name
  descending: boolean;
}

export interface CollectionPlan {
  table: GqlTable;
  filter?: FilterInput;
  sort: SortKey[];
  /** Rows to return (always bounded: the default window or `max-query-rows`). */
  limit: number;
  offset: number;
  fields: FieldPlan[];
}

/** A root `<table>` field: its rows and which of the page's fields were asked for. */
export interface PagePlan {
  collection: CollectionPlan;
  wantsData: boolean;
  wantsTotal: boolean;
  keys: PageKey[];
}

/** Relationship levels one query may nest (a depth-50 query is refused before any SQL). */
export const MAX_LINK_DEPTH = 12;

export interface PlanInput {
  model: GqlModel;
  fragments: Record<string, FragmentDefinitionNode>;
  variables: Record<string, unknown>;
}

function included(node: FieldNode | {directives?: FieldNode['directives']}, variables: Record<string, unknown>): boolean {
  if (!node.directives || node.directives.length === 0) return true;
  const skip = getDirectiveValues(GraphQLSkipDirective, node, variables);
  if (skip?.if === true) return false;
  const include = getDirectiveValues(GraphQLIncludeDirective, node, variables);
  return include?.if !== false;
}

/** The field nodes of `selectionSets` by response key, fragments flattened (the validated document holds no other type condition). */
export function collectFields(selectionSets: ReadonlyArray<SelectionSetNode | undefined>, input: PlanInput): Map<string, FieldNode[]> {
  const fields = new Map<string, FieldNode[]>();
  const visited = new Set<string>();
  const walk = (set: SelectionSetNode | undefined) => {
    if (!set) return;
    for (const selection of set.selections) {
      if (!included(selection, input.variables)) continue;
      if (selection.kind === Kind.FIELD) {
        const key = selection.alias?.value ?? selection.name.value;
        const list = fields.get(key);
        if (list) list.push(selection);
        else fields.set(key, [selection]);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        walk(selection.selectionSet);
      } else {
        const name = selection.name.value;
        if (visited.has(name)) continue;
        visited.add(name);
        walk(input.fragments[name]?.selectionSet);
      }
    }
  };
  for (const set of selectionSets) walk(set);
  return fields;
}

function fieldDef(type: GraphQLObjectType, name: string): GraphQLField<unknown, unknown> {
  const def = type.getFields()[name];
  if (!def) throw new WorkbenchError('invalid_argument', `unknown field ${name} on ${type.name}`);
  return def;
}

/** The sort enum values (`<col>_asc`, `<col>_desc`) as columns; the primary key breaks ties so pages are stable. */
export function sortKeys(table: GqlTable, sort: unknown): SortKey[] {
  const keys: SortKey[] = [];
  for (const value of Array.isArray(sort) ? sort : sort === undefined || sort === null ? [] : [sort]) {
    const match = typeof value === 'string' ? /^(.*)_(asc|desc)$/.exec(value) : null;
    const column = match ? visibleColumn(table, match[1] ?? '') : undefined;
    if (!match || !column) throw new WorkbenchError('invalid_argument', `unknown sort ${String(value)} on ${table.name}`);
    if (!keys.some((key) => key.column === column.dbName)) keys.push({column: column.dbName, descending: match[2] === 'desc'});
  }
  for (const column of table.primaryKey) if (!keys.some((key) => key.column === column)) keys.push({column, descending: false});
  return keys;
}

function offsetOf(value: unknown): number {
  if (value === undefined || value === null) return 0;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) throw new WorkbenchError('invalid_argument', `offset must be a whole number ≥ 0, not ${String(value)}`);
  return value;
}

/** The collection a `<table>` root field or a many link reads, from its (coerced) arguments. */
export function collectionOf(model: GqlModel, table: GqlTable, args: Record<string, unknown>, fields: FieldPlan[], nested: boolean): CollectionPlan {
  const filter = args.filter as FilterInput | undefined | null;
  return {
    table,
    ...(filter ? {filter} : {}),
    sort: sortKeys(table, args.sort),
    limit: effectiveLimit(model, table, args.limit, nested ? 'per parent' : 'root'),
    offset: offsetOf(args.offset),
    fields,
  };
}

/** The fields of rows of `table` (GraphQL type `type`) asked for by `nodes`. */
export function rowFields(table: GqlTable, type: GraphQLObjectType, nodes: readonly FieldNode[], input: PlanInput, depth: number): FieldPlan[] {
  if (depth > MAX_LINK_DEPTH) throw new WorkbenchError('invalid_argument', `the query nests relationships deeper than ${MAX_LINK_DEPTH} levels`);
  const plans: FieldPlan[] = [];
  for (const [key, fieldNodes] of collectFields(
    nodes.map((node) => node.selectionSet),
    input,
  )) {
    const first = fieldNodes[0];
    if (!first) continue;
    const name = first.name.value;
    if (name === '__typename') continue;
    const column = visibleColumn(table, name);
    if (column) {
      plans.push({kind: 'column', key, column});
      continue;
    }
    if (name === '_agg' && input.model.conventions === 'bifrost') {
      plans.push(aggPlan(input.model, table, key, getArgumentValues(fieldDef(type, name), first, input.variables)));
      continue;
    }
    const eavShape = table.eav ? eavFieldShape(name) : undefined;
    if (eavShape) {
      plans.push({kind: 'eav', key, table, shape: eavShape});
      continue;
    }
    const link = table.links.find((candidate) => candidate.name === name);
    if (!link) throw new WorkbenchError('invalid_argument', `unknown field ${name} on ${table.name}`);
    const target = targetTable(input.model, link);
    const def = fieldDef(type, name);
    const targetType = getNamedType(def.type);
    if (!isObjectType(targetType)) throw new WorkbenchError('internal', `${type.name}.${name} is not an object field`);
    if (link.kind === 'many' && input.model.conventions === 'bifrost') {
      // A nested page (`conventions: bifrost`): its rows are what its `data` fields select.
      const page = pageSelection(targetType, fieldNodes, input);
      const fields = page.dataNodes.length > 0 ? rowFields(target, page.rowType, page.dataNodes, input, depth + 1) : [];
      const args = getArgumentValues(def, first, input.variables);
      plans.push({kind: 'many', key, link, collection: collectionOf(input.model, target, args, fields, true), page: page.keys});
      continue;
    }
    const fields = rowFields(target, targetType, fieldNodes, input, depth + 1);
    if (link.kind === 'single') {
      plans.push({kind: 'single', key, link, table: target, fields});
    } else {
      const args = getArgumentValues(def, first, input.variables);
      plans.push({kind: 'many', key, link, collection: collectionOf(input.model, target, args, fields, true)});
    }
  }
  return plans;
}

/** What a selection of a `<table>_paged` asks for: the `data` field nodes, the row type, and every page field by response key. */
function pageSelection(pagedType: GraphQLObjectType, nodes: readonly FieldNode[], input: PlanInput): {dataNodes: FieldNode[]; rowType: GraphQLObjectType; keys: PageKey[]} {
  const dataNodes: FieldNode[] = [];
  const keys: PageKey[] = [];
  for (const [key, fieldNodes] of collectFields(
    nodes.map((node) => node.selectionSet),
    input,
  )) {
    const field = fieldNodes[0]?.name.value;
    if (field === 'data') dataNodes.push(...fieldNodes);
    if (field === 'data' || field === 'total' || field === 'offset' || field === 'limit') keys.push({key, field});
  }
  const rowType = getNamedType(fieldDef(pagedType, 'data').type);
  if (!isObjectType(rowType)) throw new WorkbenchError('internal', `${pagedType.name}.data is not a list of objects`);
  return {dataNodes, rowType, keys};
}

/** The plan of a root `<table>` field returning `<table>_paged`. */
export function pagePlan(table: GqlTable, pagedType: GraphQLObjectType, nodes: readonly FieldNode[], args: Record<string, unknown>, input: PlanInput): PagePlan {
  const {dataNodes, rowType, keys} = pageSelection(pagedType, nodes, input);
  const fields = dataNodes.length > 0 ? rowFields(table, rowType, dataNodes, input, 1) : [];
  return {
    collection: collectionOf(input.model, table, args, fields, false),
    wantsData: dataNodes.length > 0,
    wantsTotal: keys.some((key) => key.field === 'total'),
    keys,
  };
}
