import {getNamedType, isObjectType} from 'graphql';
import type {FieldNode, GraphQLResolveInfo} from 'graphql';
import {WorkbenchError} from '../../core/errors.js';
import type {GqlRequestContext, GqlTable, Row} from '../types.js';
import {countStatement, rootStatement} from './json-sql.js';
import {pagePlan, type PageKey} from './plan.js';
import {compile, parseJson, run} from './statements.js';
import type {Statement} from './statements.js';

/**
 * What a root `<table>` field resolves to: the page's fields by response key (`rows: data`,
 * `n: total`), as nested pages are built, so the page type reads both alike.
 */
export type Page = Record<string, unknown>;

interface CompiledPage {
  statement: Statement;
  count: Statement | null;
  wantsData: boolean;
  offset: number;
  limit: number;
  keys: PageKey[];
}

/**
 * Compiled statements kept per field of a cached document, by variables and user: the same query
 * from the same user sends the same SQL without planning it again. The field node is the key (the
 * service keeps parsed documents), so entries go when the document goes.
 */
const MAX_VARIANTS_PER_FIELD = 64;
const compiledPages = new WeakMap<FieldNode, Map<string, CompiledPage>>();

function variantKey(ctx: GqlRequestContext, info: GraphQLResolveInfo): string {
  return `${JSON.stringify(info.variableValues)}\u0000${JSON.stringify(ctx.user.claims)}\u0000${ctx.user.roles.join(',')}`;
}

function compilePage(table: GqlTable, args: Record<string, unknown>, ctx: GqlRequestContext, info: GraphQLResolveInfo): CompiledPage {
  const pagedType = getNamedType(info.returnType);
  if (!isObjectType(pagedType)) throw new WorkbenchError('internal', `${info.fieldName} does not return a page`);
  const plan = pagePlan(table, pagedType, info.fieldNodes, args, {model: ctx.model, fragments: info.fragments, variables: info.variableValues});
  const {collection} = plan;
  return {
    statement: compile(rootStatement(ctx, collection, plan.wantsTotal)),
    count: plan.wantsTotal ? compile(countStatement(ctx, collection)) : null,
    wantsData: plan.wantsData,
    offset: collection.offset,
    limit: collection.limit,
    keys: plan.keys,
  };
}

/**
 * Resolves a whole root `<table>(limit, offset, sort, filter)` field in one statement (plus a
 * count only when `total` is asked for and the window came back empty).
 */
export async function readPage(table: GqlTable, args: Record<string, unknown>, ctx: GqlRequestContext, info: GraphQLResolveInfo): Promise<Page> {
  const node = info.fieldNodes[0] as FieldNode;
  let variants = compiledPages.get(node);
  if (!variants) compiledPages.set(node, (variants = new Map()));
  const key = variantKey(ctx, info);
  let compiled = variants.get(key);
  if (!compiled) {
    compiled = compilePage(table, args, ctx, info);
    if (variants.size >= MAX_VARIANTS_PER_FIELD) variants.delete(variants.keys().next().value as string);
    variants.set(key, compiled);
  }
  const rows: Row[] = compiled.wantsData || !compiled.count ? await run(ctx, compiled.statement) : [];
  let total: number | null = null;
  if (compiled.count) {
    const carried = rows[0]?.total;
    total = carried !== undefined && carried !== null ? Number(carried) : Number((await run(ctx, compiled.count))[0]?.total ?? 0);
  }
  const values = {data: rows.map((row) => parseJson(row.j)), total, offset: compiled.offset, limit: compiled.limit};
  return Object.fromEntries(compiled.keys.map(({key, field}) => [key, values[field]]));
}
