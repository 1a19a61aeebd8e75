import {getNamedType, isObjectType} from 'graphql';
import type {FieldNode, GraphQLObjectType, GraphQLResolveInfo} from 'graphql';
import {WorkbenchError} from '../../core/errors.js';
import {deliverable} from '../events/deliverable.js';
import type {OutboxEvent} from '../events/outbox-store.js';
import type {OutboxTail} from '../events/outbox-tail.js';
import {readPolicy} from '../query/sql-parts.js';
import {rootStatement} from '../query/json-sql.js';
import {collectFields, collectionOf, rowFields, type FieldPlan, type PlanInput} from '../query/plan.js';
import {compile, parseJson, run} from '../query/statements.js';
import type {FilterInput, GqlRequestContext, GqlTable, Row} from '../types.js';
import {filterMatches, policyAllows} from './match-image.js';

/** What one `<t>Changed` event resolves from: the `row` fields are read per response key (aliases). */
export interface ChangePayload {
  op: string;
  eventId: string;
  key: Row;
  changed: string[] | null;
  rows: Record<string, unknown>;
}

/** The `row` selections of a `<t>Changed` field, planned once per subscription: response key → fields. */
function rowPlans(table: GqlTable, changeType: GraphQLObjectType, nodes: readonly FieldNode[], input: PlanInput): Map<string, FieldPlan[]> {
  const rowType = getNamedType(changeType.getFields().row?.type);
  if (!isObjectType(rowType)) throw new WorkbenchError('internal', `${changeType.name}.row is not an object`);
  const plans = new Map<string, FieldPlan[]>();
  for (const [key, fieldNodes] of collectFields(
    nodes.map((node) => node.selectionSet),
    input,
  )) {
    if (fieldNodes[0]?.name.value === 'row') plans.set(key, rowFields(table, rowType, fieldNodes, input, 1));
  }
  return plans;
}

/** The key as the filter language says it: `{id: {_eq: 7}}` (GraphQL names). */
function keyFilter(table: GqlTable, key: Row): FilterInput {
  const filter: FilterInput = {};
  for (const dbName of table.primaryKey) {
    const column = table.columns.find((candidate) => candidate.dbName === dbName);
    if (!column) throw new WorkbenchError('internal', `${table.name} has no key column ${dbName}`);
    filter[column.name] = {_eq: key[dbName]};
  }
  return filter;
}

/** The visible columns an event says changed (none for `keys` payloads). */
function changedColumns(table: GqlTable, event: OutboxEvent): string[] | null {
  const payload = event.payload;
  let names: string[] | undefined;
  if (payload.changes) names = Object.keys(payload.changes);
  else if (payload.before && payload.after)
    names = Object.keys(payload.after).filter((column) => JSON.stringify(payload.after?.[column]) !== JSON.stringify(payload.before?.[column]));
  else if (payload.after) names = Object.keys(payload.after);
  else if (payload.before) names = Object.keys(payload.before);
  if (!names) return null;
  return table.columns.filter((column) => !column.hidden && names.includes(column.dbName)).map((column) => column.name);
}

/**
 * The events of one `<t>Changed(filter)` subscriber, as an async iterator: from the outbox tail,
 * only what this subscriber may see. An insert or update is read back through the read path —
 * the same compiled SQL, tenant filter, auto-filters and soft delete as a query of `<t>` with
 * `filter` and the row's key — so a row the subscriber could not query is never sent, and `row`
 * holds exactly the fields (and relationships) it asked for. A delete is judged on the row's
 * last image (match-image.ts), fail-closed. Events reach the subscriber in outbox order.
 */
export async function changeStream(
  table: GqlTable,
  args: {filter?: FilterInput | null},
  ctx: GqlRequestContext,
  info: GraphQLResolveInfo,
): Promise<AsyncIterableIterator<ChangePayload>> {
  const tail = ctx.changeFeed as OutboxTail | undefined;
  if (!tail) throw new WorkbenchError('invalid_argument', 'subscriptions are served over WebSocket (graphql-ws) by `workbench serve graphql`, or by the service in-process');
  const policy = readPolicy(ctx, table);
  const changeType = getNamedType(info.returnType);
  if (!isObjectType(changeType)) throw new WorkbenchError('internal', `${info.fieldName} does not return an object`);
  const input: PlanInput = {model: ctx.model, fragments: info.fragments, variables: info.variableValues};
  const plans = rowPlans(table, changeType, info.fieldNodes, input);
  // With no `row` asked for, the key columns still say whether the row is the subscriber's to see.
  const probe: FieldPlan[] = table.columns.filter((column) => column.isPrimaryKey).map((column, index) => ({kind: 'column', key: `k${index}`, column}));
  const filter = args.filter ?? undefined;
  const subscription = ctx.model.events?.subscription;

  const queue: ChangePayload[] = [];
  let waiting: ((result: IteratorResult<ChangePayload>) => void) | undefined;
  let failure: ((error: unknown) => void) | undefined;
  let done = false;
  let pending: Error | undefined;
  let chain = Promise.resolve();

  const push = (payload: ChangePayload) => {
    if (waiting) {
      const resolve = waiting;
      waiting = undefined;
      failure = undefined;
      resolve({value: payload, done: false});
    } else queue.push(payload);
  };

  const readRow = async (fields: FieldPlan[], key: Row): Promise<unknown> => {
    const combined = filter ? {and: [filter, keyFilter(table, key)]} : keyFilter(table, key);
    const collection = collectionOf(ctx.model, table, {filter: combined, limit: 1}, fields, false);
    const rows = await run(ctx, compile(rootStatement(ctx, collection, false)));
    return rows.length > 0 ? parseJson(rows[0]?.j) : undefined;
  };

  const judge = async (event: OutboxEvent): Promise<ChangePayload | undefined> => {
    // The subscription-* keys filter what every sink receives, subscribers included.
    if (!deliverable(subscription, event)) return undefined;
    const key = event.payload.key;
    const base = {op: event.op, eventId: String(event.id), key, changed: changedColumns(table, event), rows: {}};
    if (event.op === 'delete') {
      const image = event.payload.before ?? event.payload.after;
      if (!policyAllows(policy, table, image, event.tenant) || !filterMatches(table, filter, image)) return undefined;
      for (const responseKey of plans.keys()) (base.rows as Record<string, unknown>)[responseKey] = null;
      return base;
    }
    const rows = base.rows as Record<string, unknown>;
    const read = plans.size === 0 ? [['', probe] as const] : [...plans];
    for (const [responseKey, fields] of read) {
      const row = await readRow(fields, key);
      if (row === undefined) {
        // Gone or changed again since (a later delete or update is on its way): judged on the event's
        // own image, as a delete is, and sent with no row — or not at all when the image cannot tell.
        const image = event.payload.after;
        if (!policyAllows(policy, table, image, event.tenant) || !filterMatches(table, filter, image)) return undefined;
        for (const other of plans.keys()) rows[other] = null;
        return base;
      }
      if (responseKey !== '' || plans.size > 0) rows[responseKey] = row;
    }
    return base;
  };

  const unsubscribe = await tail.listen(table.key, (events) => {
    chain = chain.then(async () => {
      for (const event of events) {
        if (done) return;
        try {
          const payload = await judge(event);
          if (payload) push(payload);
        } catch (error) {
          // The database away: the subscription ends with the reason (the client may subscribe again).
          done = true;
          unsubscribe();
          if (failure) {
            failure(error);
            waiting = failure = undefined;
          } else pending = error as Error;
          return;
        }
      }
    });
  });

  const finish = (): Promise<IteratorResult<ChangePayload>> => {
    done = true;
    unsubscribe();
    queue.length = 0;
    waiting?.({value: undefined, done: true});
    waiting = undefined;
    return Promise.resolve({value: undefined, done: true});
  };

  const iterator: AsyncIterableIterator<ChangePayload> = {
    next(): Promise<IteratorResult<ChangePayload>> {
      const queued = queue.shift();
      if (queued) return Promise.resolve({value: queued, done: false});
      if (pending) {
        const error = pending;
        pending = undefined;
        return Promise.reject(error);
      }
      if (done) return Promise.resolve({value: undefined, done: true});
      return new Promise((resolve, reject) => {
        waiting = resolve;
        failure = reject;
      });
    },
    return: finish,
    throw(error?: unknown) {
      void finish();
      return Promise.reject(error);
    },
    [Symbol.asyncIterator]() {
      return iterator;
    },
  };
  return iterator;
}
