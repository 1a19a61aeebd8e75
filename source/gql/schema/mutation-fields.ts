import type {GraphQLFieldConfigMap} from 'graphql';
import type {GqlModel, GqlRequestContext} from '../types.js';
import type {TypesFor} from './table-types.js';

/**
 * The Mutation type's fields: per table `<t>(insert:, update:, upsert:, delete:)` and
 * `<t>_batch(actions:)`, plus `updateWhere` where `filtered-update: enabled`. Filled in by the
 * mutation work (issue 10 item 6); the schema builder calls it and adds a Mutation type when it
 * returns any field.
 */
export function mutationFields(model: GqlModel, typesFor: TypesFor): GraphQLFieldConfigMap<unknown, GqlRequestContext> {
  void model;
  void typesFor;
  return {};
}
