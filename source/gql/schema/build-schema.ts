import {
  GraphQLBoolean,
  GraphQLEnumType,
  GraphQLFloat,
  GraphQLInputObjectType,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLSchema,
  GraphQLString,
} from 'graphql';
import type {GraphQLEnumValueConfigMap, GraphQLFieldConfig, GraphQLFieldConfigMap, GraphQLFieldResolver, GraphQLInputFieldConfigMap, GraphQLOutputType} from 'graphql';
import {eavFilterFields, eavObjectFields} from '../eav/schema-fields.js';
import {callProcedure, readGenericTable, runRawQuery} from '../query/admin-fields.js';
import {AGGREGATE_OPERATIONS, numericColumns, readAggregate} from '../query/aggregate.js';
import {guarded} from '../query/errors.js';
import {AGG_DESCRIPTION, NESTED_AGGREGATE_OPERATIONS} from '../query/nested-aggregate.js';
import {readPage} from '../query/read-page.js';
import {ROWS_EXTENSION} from '../query/cost.js';
import type {FilterInput, GqlModel, GqlProcedure, GqlRequestContext, GqlTable} from '../types.js';
import {columnFilterTypes} from './filter-types.js';
import {mutationFields} from './mutation-fields.js';
import {subscriptionFields} from './subscription-fields.js';
import {GraphQLJSON, scalarFor} from './scalars.js';
import type {TableTypes, TypesFor} from './table-types.js';
import {ALL_HIDDEN_HINT, EMPTY_FIELD, NO_TABLES_HINT} from './empty-schema.js';

type Fields = GraphQLFieldConfigMap<unknown, GqlRequestContext>;

/** Row fields read the property named by the response key: the database built each row with those keys. */
const byResponseKey: GraphQLFieldResolver<unknown, GqlRequestContext> = (source, _args, _ctx, info) => (source as Record<string, unknown>)[info.path.key as string];

/** A table served: visible, with at least one visible column (a type needs a field). */
export function isServed(table: GqlTable | undefined): table is GqlTable {
  return table !== undefined && !table.hidden && table.columns.some((column) => !column.hidden);
}

function listOf(type: GraphQLOutputType) {
  return new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(type)));
}

/**
 * The GraphQL schema of a model, named as upstream (BifrostQL) names it: per table a query field
 * `<t>(limit, offset, sort, filter)` → `<t>_paged {data, total, offset, limit}` and
 * `<t>Aggregate(filter, groupBy)` → `[<t>_aggregate!]!`; object types with the visible columns and
 * a field per link; `TableFilter<t>Input` filters with `and`/`or` and filters through links.
 * Hidden tables and columns appear nowhere. Stored procedures, `_table` and `_rawQuery` when the
 * model serves them; a Mutation type when the mutation fields give any. Under `conventions:
 * bifrost` a to-many link is a `<t>_paged` page like the root, and each row type has
 * `_agg(operation: AggregateOperations!, value: <t>_AggregateValue!): Float`.
 */
export function buildSchema(model: GqlModel): GraphQLSchema {
  const filterTypeFor = columnFilterTypes();
  const bifrost = model.conventions === 'bifrost';
  const aggregateOperations = new GraphQLEnumType({
    name: 'AggregateOperations',
    values: Object.fromEntries(NESTED_AGGREGATE_OPERATIONS.map((operation) => [operation, {value: operation}])),
  });
  const made = new Map<string, TableTypes>();
  const visibleLinks = (table: GqlTable) => table.links.filter((link) => isServed(model.byKey.get(link.target)));
  const columnsOf = (table: GqlTable) => table.columns.filter((column) => !column.hidden);

  const typesFor: TypesFor = (table) => {
    const existing = made.get(table.key);
    if (existing) return existing;
    const sortValues: GraphQLEnumValueConfigMap = {};
    const columnValues: GraphQLEnumValueConfigMap = {};
    for (const column of columnsOf(table)) {
      sortValues[`${column.name}_asc`] = {value: `${column.name}_asc`};
      sortValues[`${column.name}_desc`] = {value: `${column.name}_desc`};
      columnValues[column.name] = {value: column.name};
    }
    const types: TableTypes = {
      object: new GraphQLObjectType<unknown, GqlRequestContext>({
        name: table.name,
        fields: () => {
          const fields: Fields = {};
          for (const column of columnsOf(table)) {
            const scalar = scalarFor(column.kind);
            fields[column.name] = {type: column.nullable ? scalar : new GraphQLNonNull(scalar), resolve: byResponseKey};
          }
          if (bifrost) {
            fields._agg = {
              type: GraphQLFloat,
              description: `One number over the rows a path of links reaches from this row. ${AGG_DESCRIPTION}`,
              args: {operation: {type: new GraphQLNonNull(aggregateOperations)}, value: {type: new GraphQLNonNull(types.aggregateValue)}},
              resolve: byResponseKey,
              extensions: {[ROWS_EXTENSION]: {aggregate: table.key}},
            };
          }
          for (const link of visibleLinks(table)) {
            const target = typesFor(model.byKey.get(link.target) as GqlTable);
            const rows = {[ROWS_EXTENSION]: {table: link.target, partition: !link.via, ...(bifrost ? {link: true} : {})}};
            fields[link.name] =
              link.kind === 'single'
                ? {type: target.object, resolve: byResponseKey, extensions: {[ROWS_EXTENSION]: {single: true}}}
                : // Under upstream's current conventions a nested collection is a page of its own, as the root is.
                  {type: bifrost ? new GraphQLNonNull(target.paged) : listOf(target.object), args: collectionArgs(target), resolve: byResponseKey, extensions: rows};
          }
          return {...fields, ...eavObjectFields(table)};
        },
      }),
      filter: new GraphQLInputObjectType({
        name: `TableFilter${table.name}Input`,
        fields: () => {
          const fields: GraphQLInputFieldConfigMap = {};
          for (const column of columnsOf(table)) fields[column.name] = {type: filterTypeFor(column.kind)};
          for (const link of visibleLinks(table)) {
            fields[link.name] = {
              type: typesFor(model.byKey.get(link.target) as GqlTable).filter,
              description: `Rows with ${link.kind === 'single' ? 'a' : 'any'} ${link.name} matching`,
            };
          }
          Object.assign(fields, eavFilterFields(table));
          const self = new GraphQLList(new GraphQLNonNull(types.filter));
          fields.and = {type: self};
          fields.or = {type: self};
          return fields;
        },
      }),
      sortEnum: new GraphQLEnumType({name: `${table.name}SortEnum`, values: sortValues}),
      columnEnum: new GraphQLEnumType({name: `${table.name}Enum`, values: columnValues}),
      // The page's fields read their response keys: the root and the nested pages are built keyed by them.
      paged: new GraphQLObjectType<unknown, GqlRequestContext>({
        name: `${table.name}_paged`,
        fields: () => ({
          data: {type: listOf(types.object), resolve: byResponseKey},
          total: {type: new GraphQLNonNull(GraphQLInt), resolve: byResponseKey},
          offset: {type: GraphQLInt, resolve: byResponseKey},
          limit: {type: GraphQLInt, resolve: byResponseKey},
        }),
      }),
      aggregateValue: new GraphQLInputObjectType({
        name: `${table.name}_AggregateValue`,
        description: `The path an _agg reads. ${AGG_DESCRIPTION}`,
        fields: () => {
          const fields: GraphQLInputFieldConfigMap = {column: {type: types.columnEnum}};
          for (const link of visibleLinks(table)) fields[link.name] = {type: typesFor(model.byKey.get(link.target) as GqlTable).aggregateValue};
          return fields;
        },
      }),
    };
    made.set(table.key, types);
    return types;
  };

  const collectionArgs = (types: TableTypes) => ({
    limit: {type: GraphQLInt, description: 'Rows to return; -1 for no limit (clamped by max-query-rows)'},
    offset: {type: GraphQLInt},
    sort: {type: new GraphQLList(new GraphQLNonNull(types.sortEnum))},
    filter: {type: types.filter},
  });

  const tableFields = (table: GqlTable): Fields => {
    const types = typesFor(table);
    const numeric = numericColumns(table);
    const aggregateFields: Fields = {};
    for (const column of columnsOf(table)) aggregateFields[column.name] = {type: scalarFor(column.kind)};
    aggregateFields._count = {type: new GraphQLNonNull(GraphQLInt)};
    if (numeric.length > 0) {
      const values = new GraphQLObjectType({name: `${table.name}_aggregateFields`, fields: Object.fromEntries(numeric.map((column) => [column.name, {type: GraphQLFloat}]))});
      for (const op of AGGREGATE_OPERATIONS) aggregateFields[op] = {type: values};
    }
    const aggregate = new GraphQLObjectType<unknown, GqlRequestContext>({name: `${table.name}_aggregate`, fields: aggregateFields});
    return {
      [table.name]: {
        type: types.paged,
        args: collectionArgs(types),
        extensions: {[ROWS_EXTENSION]: {table: table.key, partition: true}},
        resolve: guarded((_source: unknown, args: Record<string, unknown>, ctx: GqlRequestContext, info) => readPage(table, args, ctx, info)),
      },
      [`${table.name}Aggregate`]: {
        type: listOf(aggregate),
        args: {filter: {type: types.filter}, groupBy: {type: new GraphQLList(new GraphQLNonNull(types.columnEnum))}},
        resolve: guarded((_source: unknown, args: {filter?: FilterInput | null; groupBy?: string[] | null}, ctx: GqlRequestContext, info) => readAggregate(table, args, ctx, info)),
      },
    };
  };

  const query: Fields = {};
  const schemaFields = new Map<string, Fields>();
  for (const table of model.tables.filter(isServed)) {
    if (table.schemaField !== undefined) {
      const fields = schemaFields.get(table.schemaField) ?? {};
      Object.assign(fields, tableFields(table));
      schemaFields.set(table.schemaField, fields);
    } else {
      Object.assign(query, tableFields(table));
    }
  }
  // `schema-display: field`: a schema's tables sit under a field named for the schema.
  for (const [name, fields] of schemaFields) {
    query[name] = {type: new GraphQLNonNull(new GraphQLObjectType({name: `${name}_schema`, fields})), resolve: () => ({})};
  }
  for (const procedure of model.procedures) query[procedure.name] = procedureField(procedure);
  if (model.genericTable.enabled) {
    query._table = {
      type: listOf(GraphQLJSON),
      description: `Rows of any visible table by name (role ${model.genericTable.role}).`,
      args: {name: {type: new GraphQLNonNull(GraphQLString)}, limit: {type: GraphQLInt}, offset: {type: GraphQLInt}, filter: {type: GraphQLJSON}},
      resolve: guarded((_source: unknown, args: {name: string; limit?: number; offset?: number; filter?: unknown}, ctx: GqlRequestContext) => readGenericTable(args, ctx)),
    };
  }
  if (model.rawSql.enabled) {
    query._rawQuery = {
      type: listOf(GraphQLJSON),
      description: `Runs SQL with ? placeholders bound to params (role ${model.rawSql.role}).`,
      args: {sql: {type: new GraphQLNonNull(GraphQLString)}, params: {type: new GraphQLList(GraphQLJSON)}, timeout: {type: GraphQLInt, description: 'Seconds'}},
      resolve: guarded((_source: unknown, args: {sql: string; params?: unknown[]; timeout?: number}, ctx: GqlRequestContext) => runRawQuery(args, ctx)),
    };
  }
  // A schema needs a field on Query: an empty database still serves a valid one.
  // Its description is the hint every face shows (empty-schema.ts).
  if (Object.keys(query).length === 0) query[EMPTY_FIELD] = {type: GraphQLBoolean, description: model.tables.length === 0 ? NO_TABLES_HINT : ALL_HIDDEN_HINT, resolve: () => null};

  const mutations = mutationFields(model, typesFor);
  const subscriptions = subscriptionFields(model, typesFor, isServed);
  return new GraphQLSchema({
    query: new GraphQLObjectType({name: 'Query', fields: query}),
    ...(Object.keys(mutations).length > 0 ? {mutation: new GraphQLObjectType({name: 'Mutation', fields: mutations})} : {}),
    ...(Object.keys(subscriptions).length > 0 ? {subscription: new GraphQLObjectType({name: 'Subscription', fields: subscriptions})} : {}),
  });
}

function procedureField(procedure: GqlProcedure): GraphQLFieldConfig<unknown, GqlRequestContext> {
  const args = Object.fromEntries(procedure.params.filter((param) => param.mode !== 'out').map((param) => [param.name, {type: scalarFor(param.kind)}]));
  return {
    type: listOf(GraphQLJSON),
    description: `Calls ${procedure.schema}.${procedure.dbName}; its rows as JSON objects.`,
    args,
    resolve: guarded((_source: unknown, input: Record<string, unknown>, ctx: GqlRequestContext) => callProcedure(procedure, input, ctx)),
  };
}
