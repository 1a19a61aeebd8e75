import type {GraphQLEnumType, GraphQLInputObjectType, GraphQLObjectType} from 'graphql';
import type {GqlTable} from '../types.js';

/**
 * The GraphQL types generated for one table, shared by the query side (schema/ and query/) and
 * the mutation side (mutate/, schema/mutation-fields.ts) so both name and shape them alike.
 */
export interface TableTypes {
  /** The row type (`<table>`): visible columns and link fields. */
  object: GraphQLObjectType;
  /** `TableFilter<table>Input`: per-column operators, `and`/`or`, and link fields (filters through relationships). */
  filter: GraphQLInputObjectType;
  /** `<table>SortEnum`: `<col>_asc` / `<col>_desc`. */
  sortEnum: GraphQLEnumType;
  /** `<table>Enum`: the visible columns (aggregate groupBy, `_agg`'s column). */
  columnEnum: GraphQLEnumType;
  /** `<table>_paged {data, total, offset, limit}`: a root page, and a nested one under `conventions: bifrost`. */
  paged: GraphQLObjectType;
  /** `<table>_AggregateValue {column, <link>: …}`: the path `_agg` follows (`conventions: bifrost`). */
  aggregateValue: GraphQLInputObjectType;
}

export type TypesFor = (table: GqlTable) => TableTypes;
