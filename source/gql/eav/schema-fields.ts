import {GraphQLList, GraphQLNonNull, GraphQLObjectType, GraphQLString} from 'graphql';
import type {GraphQLFieldConfigMap, GraphQLInputFieldConfigMap} from 'graphql';
import {GraphQLJSON, scalarFor} from '../schema/scalars.js';
import type {GqlRequestContext, GqlTable} from '../types.js';
import {EAV_FILTER_FIELD, EAV_LIST_FIELD, EAV_MAP_FIELD} from './fields.js';
import {attributeOperators} from './read-sql.js';

/** The database built each row keyed by response key (query/json-sql.ts): read that property. */
const byResponseKey = (source: unknown, _args: unknown, _ctx: unknown, info: {path: {key: string | number}}) => (source as Record<string, unknown>)[info.path.key as string];

/** `_meta: JSON!` and `_attributes: [<t>_attribute!]!` on the row type of an EAV parent; nothing on other tables. */
export function eavObjectFields(table: GqlTable): GraphQLFieldConfigMap<unknown, GqlRequestContext> {
  if (!table.eav) return {};
  const attribute = new GraphQLObjectType({
    name: `${table.name}_attribute`,
    description: `One attribute of a ${table.name} row (its EAV meta table).`,
    fields: {key: {type: new GraphQLNonNull(GraphQLString)}, value: {type: scalarFor(table.eav.valueKind)}},
  });
  return {
    [EAV_MAP_FIELD]: {type: new GraphQLNonNull(GraphQLJSON), description: 'The attributes as one object: attribute → value.', resolve: byResponseKey},
    [EAV_LIST_FIELD]: {type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(attribute))), description: 'The attributes, ordered by key.', resolve: byResponseKey},
  };
}

/** `_attr: JSON` on an EAV parent's filter: `{<attribute>: {<operator>: value}}`. */
export function eavFilterFields(table: GqlTable): GraphQLInputFieldConfigMap {
  if (!table.eav) return {};
  return {
    [EAV_FILTER_FIELD]: {
      type: GraphQLJSON,
      description: `Rows by attribute: {<attribute>: {<operator>: value}} with ${attributeOperators(table).join(', ')} (_null: true = the attribute is absent).`,
    },
  };
}

/** `_meta: JSON` on an EAV parent's insert, update and upsert inputs: attribute → value, null removes it. */
export function eavInputFields(table: GqlTable): GraphQLInputFieldConfigMap {
  if (!table.eav) return {};
  return {[EAV_MAP_FIELD]: {type: GraphQLJSON, description: 'Attributes to set: {<attribute>: value}; a null value removes the attribute. Others are kept.'}};
}
