import {GraphQLBoolean, GraphQLInputObjectType, GraphQLList, GraphQLNonNull} from 'graphql';
import type {GraphQLInputFieldConfigMap, GraphQLScalarType} from 'graphql';
import {COMPARISON_OPERATORS, STRING_OPERATORS} from '../query/sql-parts.js';
import type {ColumnKind} from '../types.js';
import {scalarFor} from './scalars.js';

/**
 * `FilterType<Scalar>Input`, one per scalar: the comparison operators for every kind, the pattern
 * operators (`_contains`, `_starts_with`, `_ends_with`, `_like`) for strings only. Made once per
 * schema and shared by every column of that scalar.
 */
export function columnFilterTypes(): (kind: ColumnKind) => GraphQLInputObjectType {
  const made = new Map<string, GraphQLInputObjectType>();
  return (kind) => {
    const scalar: GraphQLScalarType = scalarFor(kind);
    const stringLike = kind === 'string';
    const name = `FilterType${scalar.name}${stringLike ? '' : kind === 'uuid' || kind === 'binary' ? 'Exact' : ''}Input`;
    const existing = made.get(name);
    if (existing) return existing;
    const list = new GraphQLList(new GraphQLNonNull(scalar));
    const fields: GraphQLInputFieldConfigMap = {};
    for (const op of COMPARISON_OPERATORS) {
      if (op === '_null') fields[op] = {type: GraphQLBoolean, description: 'true: is null; false: is not null'};
      else if (op === '_in' || op === '_nin') fields[op] = {type: list};
      else if (op === '_between') fields[op] = {type: list, description: 'Exactly two values: low and high, both included'};
      else fields[op] = {type: scalar};
    }
    if (stringLike) {
      for (const op of STRING_OPERATORS) fields[op] = {type: scalar, description: op === '_like' ? 'An SQL LIKE pattern (% and _)' : undefined};
    }
    const type = new GraphQLInputObjectType({name, fields});
    made.set(name, type);
    return type;
  };
}
