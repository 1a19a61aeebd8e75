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
  /** `<table>Enum`: the visible columns (aggregate groupBy). */
  columnEnum: GraphQLEnumType;
}

export type TypesFor = (table: GqlTable) => TableTypes;
