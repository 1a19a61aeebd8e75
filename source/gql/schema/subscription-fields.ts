import {GraphQLList, GraphQLNonNull, GraphQLObjectType, GraphQLString} from 'graphql';
import type {GraphQLFieldConfigMap, GraphQLResolveInfo} from 'graphql';
import {guarded} from '../query/errors.js';
import {changeStream, type ChangePayload} from '../subscribe/change-stream.js';
import type {FilterInput, GqlModel, GqlRequestContext, GqlTable} from '../types.js';
import {GraphQLJSON} from './scalars.js';
import type {TypesFor} from './table-types.js';

/** Whether `<t>Changed` exists: the table emits events and the subscription allow-list (when set) names it. */
function subscribable(model: GqlModel, table: GqlTable): boolean {
  if (!table.events || !model.events) return false;
  const allowed = model.events.subscription?.tables;
  return !allowed || allowed.some((key) => key.toLowerCase() === table.key.toLowerCase());
}

/**
 * The Subscription type: per served table with `emit-events`
 *
 *   <t>Changed(filter: TableFilter<t>Input): <t>_change!
 *   type <t>_change { op: String!  eventId: String!  key: JSON!  changed: [String!]  row: <t> }
 *
 * fed from the outbox (subscribe/change-stream.ts): `op` is insert/update/delete, `eventId` the
 * outbox id, `key` the row's key, `changed` the columns an update changed, `row` the row as the
 * subscriber may read it now (any fields and relationships; null for a delete). The tenant filter
 * and auto-filters of the subscriber apply to every event. Tables of a `schema-display: field`
 * schema are named `<schema>_<t>Changed` (subscriptions have root fields only).
 */
export function subscriptionFields(model: GqlModel, typesFor: TypesFor, isServed: (table: GqlTable) => boolean): GraphQLFieldConfigMap<unknown, GqlRequestContext> {
  const fields: GraphQLFieldConfigMap<unknown, GqlRequestContext> = {};
  for (const table of model.tables) {
    if (!isServed(table) || !subscribable(model, table) || table.primaryKey.length === 0) continue;
    if (table.columns.some((column) => column.isPrimaryKey && column.hidden)) continue;
    const types = typesFor(table);
    const change = new GraphQLObjectType<ChangePayload, GqlRequestContext>({
      name: `${table.name}_change`,
      description: `A committed change of ${table.name}, from the outbox.`,
      fields: {
        op: {type: new GraphQLNonNull(GraphQLString), description: 'insert, update or delete'},
        eventId: {type: new GraphQLNonNull(GraphQLString), description: 'The outbox id (the webhook and NATS carry the same)'},
        key: {type: new GraphQLNonNull(GraphQLJSON), description: 'The row key, by column'},
        changed: {type: new GraphQLList(new GraphQLNonNull(GraphQLString)), description: 'The columns the change wrote (null when the table emits keys only)'},
        row: {
          type: types.object,
          description: 'The row now, as this subscriber may read it; null for a delete',
          resolve: (payload, _args, _ctx, info) => payload.rows[info.path.key as string] ?? null,
        },
      },
    });
    const name = `${table.schemaField ? `${table.schemaField}_` : ''}${table.name}Changed`;
    fields[name] = {
      type: new GraphQLNonNull(change),
      description: `Changes of ${table.name} as they commit (the filter narrows them; your tenant's rows only).`,
      args: {filter: {type: types.filter}},
      subscribe: guarded((_source: unknown, args: {filter?: FilterInput | null}, ctx: GqlRequestContext, info: GraphQLResolveInfo) =>
        changeStream(table, args, ctx, info),
      ) as never,
      resolve: (payload: unknown) => payload,
    };
  }
  return fields;
}
