import {RE2JS, RE2JSException} from 're2js';
import {KEY} from '../metadata/keys.js';
import type {GqlModel} from '../types.js';
import {DEFAULT_MAX_QUERY_COST, DEFAULT_MAX_QUERY_DEPTH} from '../query/cost.js';
import {DEFAULT_STATEMENT_TIMEOUT_SECONDS} from '../query/deadline.js';
import {parsePrefixFormat, type SchemaPrefixFormat} from './names.js';
import type {PropertyReader} from './property-reader.js';

export type ModelOptions = Pick<
  GqlModel,
  | 'maxQueryRows'
  | 'maxQueryCost'
  | 'maxQueryDepth'
  | 'statementTimeoutSeconds'
  | 'defaultLimit'
  | 'tenantContextKey'
  | 'autoFilterBypassRole'
  | 'rawSql'
  | 'genericTable'
  | 'schemaDisplay'
  | 'schemaDefault'
  | 'schemaExcluded'
  | 'conventions'
> & {
  dePluralize: boolean;
  autoJoin: boolean;
  foreignJoins: boolean;
  /** Undefined when schema-prefix is off (and schema-display is not `prefix`). */
  prefix?: {format: SchemaPrefixFormat; unprefixed: string};
  spInclude?: RE2JS;
  spExclude?: RE2JS;
};

/** The model's (`:root`) properties with the spec's defaults. `defaultSchema` is the database's. */
export function modelOptions(read: PropertyReader, defaultSchema: string): ModelOptions {
  const schemaDisplay = read.oneOf(KEY.schemaDisplay, ['flat', 'prefix', 'field'] as const) ?? 'flat';
  const prefixOn = read.boolean(KEY.schemaPrefix, false) || schemaDisplay === 'prefix';
  const format = parsePrefixFormat(read.text(KEY.schemaPrefixFormat));
  if (!format) read.problem(KEY.schemaPrefixFormat, 'must be underscore, camelcase, or a template with {schema} and {table}');
  const schemaDefault = read.text(KEY.schemaDefault);
  const rawSqlTimeout = read.integer(KEY.rawSqlTimeout, {positive: true});
  const rawSqlMaxRows = read.integer(KEY.rawSqlMaxRows, {positive: true});
  const genericMaxRows = read.integer(KEY.genericTableMaxRows, {positive: true});
  const allowed = read.list(KEY.genericTableAllowed);
  const denied = read.list(KEY.genericTableDenied);
  const bypass = read.text(KEY.autoFilterBypassRole);
  const spInclude = pattern(read, KEY.spInclude);
  const spExclude = pattern(read, KEY.spExclude);
  return {
    maxQueryRows: read.integer(KEY.maxQueryRows, {positive: true}) ?? 10000,
    maxQueryCost: read.integer(KEY.maxQueryCost, {positive: true}) ?? DEFAULT_MAX_QUERY_COST,
    maxQueryDepth: read.integer(KEY.maxQueryDepth, {positive: true}) ?? DEFAULT_MAX_QUERY_DEPTH,
    statementTimeoutSeconds: read.integer(KEY.statementTimeout, {positive: true}) ?? DEFAULT_STATEMENT_TIMEOUT_SECONDS,
    defaultLimit: read.integer(KEY.defaultLimit, {positive: true}) ?? 100,
    tenantContextKey: read.text(KEY.tenantContextKey) ?? 'tenant_id',
    ...(bypass ? {autoFilterBypassRole: bypass} : {}),
    rawSql: {
      enabled: read.boolean(KEY.rawSql, false),
      role: read.text(KEY.rawSqlRole) ?? 'gql-raw-sql',
      ...(rawSqlTimeout ? {timeoutSeconds: rawSqlTimeout} : {}),
      ...(rawSqlMaxRows ? {maxRows: rawSqlMaxRows} : {}),
    },
    genericTable: {
      enabled: read.boolean(KEY.genericTable, false),
      role: read.text(KEY.genericTableRole) ?? 'gql-admin',
      ...(genericMaxRows ? {maxRows: genericMaxRows} : {}),
      ...(allowed ? {allowed} : {}),
      ...(denied ? {denied} : {}),
    },
    schemaDisplay,
    ...(schemaDefault ? {schemaDefault} : {}),
    schemaExcluded: read.list(KEY.schemaExcluded) ?? [],
    conventions: read.oneOf(KEY.conventions, ['classic', 'bifrost'] as const) ?? 'classic',
    dePluralize: read.boolean(KEY.dePluralize, false),
    autoJoin: read.boolean(KEY.autoJoin, true),
    foreignJoins: read.boolean(KEY.foreignJoins, true),
    ...(prefixOn ? {prefix: {format: format ?? {kind: 'underscore'}, unprefixed: read.text(KEY.schemaPrefixDefault) ?? defaultSchema}} : {}),
    ...(spInclude ? {spInclude} : {}),
    ...(spExclude ? {spExclude} : {}),
  };
}

/**
 * A user's regex compiled for RE2 (linear time: no pattern makes model load backtrack for hours),
 * as the repo guards every user pattern. Matching is case-insensitive, like procedure names.
 */
function pattern(read: PropertyReader, key: string): RE2JS | undefined {
  const text = read.props[key];
  if (text === undefined) return undefined;
  try {
    return RE2JS.compile(text, RE2JS.CASE_INSENSITIVE);
  } catch (error) {
    if (!(error instanceof RE2JSException)) throw error;
    read.problem(key, `is not a regular expression RE2 reads: ${error.message.replace(/^error parsing regexp: /, '')} (no lookaround or backreferences)`);
    return undefined;
  }
}
