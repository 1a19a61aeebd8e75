import {GraphQLBoolean, GraphQLError, GraphQLFloat, GraphQLInt, GraphQLScalarType, GraphQLString, Kind, valueFromASTUntyped} from 'graphql';
import type {ValueNode} from 'graphql';
import type {ColumnKind} from '../types.js';

/**
 * The scalars beyond GraphQL's own. Exact numbers travel as strings (as PostGraphile does) so no
 * digit is lost to a double: `Decimal` for numeric/decimal/money, `BigInt` for 64-bit integers.
 * Both accept a string or a number as input.
 */
function exactNumber(name: string, pattern: RegExp, description: string): GraphQLScalarType {
  const check = (value: unknown): string => {
    const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : typeof value === 'bigint' ? value.toString() : value;
    if (typeof text !== 'string' || !pattern.test(text)) throw new GraphQLError(`${name} cannot represent ${JSON.stringify(value) ?? String(value)}`);
    return text;
  };
  return new GraphQLScalarType({
    name,
    description,
    serialize: check,
    parseValue: check,
    parseLiteral(node: ValueNode) {
      if (node.kind === Kind.INT || node.kind === Kind.FLOAT || node.kind === Kind.STRING) return check(node.value);
      throw new GraphQLError(`${name} takes a number or a string of digits`);
    },
  });
}

export const GraphQLDecimal = exactNumber('Decimal', /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/, 'An exact decimal number, as a string (numeric, decimal, money columns).');
export const GraphQLBigInt = exactNumber('BigInt', /^-?\d+$/, 'A 64-bit integer, as a string.');

/** Dates, timestamps and times as the database writes them (ISO-8601 text); a Date object is written in ISO form. */
export const GraphQLDateTime = new GraphQLScalarType({
  name: 'DateTime',
  description: 'A date, timestamp or time of day as ISO-8601 text.',
  serialize: (value) => (value instanceof Date ? value.toISOString() : String(value)),
  parseValue(value) {
    if (typeof value !== 'string') throw new GraphQLError('DateTime takes a string');
    return value;
  },
  parseLiteral(node) {
    if (node.kind !== Kind.STRING) throw new GraphQLError('DateTime takes a string');
    return node.value;
  },
});

/** Any JSON value: json columns, stored procedure rows, `_table` and `_rawQuery` rows and filters. */
export const GraphQLJSON = new GraphQLScalarType({
  name: 'JSON',
  description: 'Any JSON value.',
  serialize: (value) => (typeof value === 'bigint' ? value.toString() : value),
  parseValue: (value) => value,
  parseLiteral: (node, variables) => valueFromASTUntyped(node, variables),
});

/** The scalar each column kind reads as. Binary columns are base64 text; UUIDs are strings. */
export function scalarFor(kind: ColumnKind): GraphQLScalarType {
  switch (kind) {
    case 'int':
      return GraphQLInt;
    case 'bigint':
      return GraphQLBigInt;
    case 'float':
      return GraphQLFloat;
    case 'decimal':
      return GraphQLDecimal;
    case 'boolean':
      return GraphQLBoolean;
    case 'date':
    case 'datetime':
    case 'time':
      return GraphQLDateTime;
    case 'json':
      return GraphQLJSON;
    default:
      return GraphQLString;
  }
}
