import {
  GraphQLBoolean,
  GraphQLFloat,
  GraphQLInputObjectType,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLString,
  getNamedType,
  isInputType,
  type GraphQLFieldConfig,
  type GraphQLFieldConfigMap,
  type GraphQLInputFieldConfigMap,
  type GraphQLInputType,
} from 'graphql';
import {WorkbenchError} from '../../core/errors.js';
import {eavInputFields} from '../eav/schema-fields.js';
import {withFileUploads} from '../files/file-mutations.js';
import {GraphQLUpload} from '../files/staged-file.js';
import {runBatch} from '../mutate/batch.js';
import {acceptsColumn, type WriteRole} from '../mutate/columns.js';
import {mutateRow} from '../mutate/mutate-row.js';
import type {WriteAction, WriteOp} from '../mutate/prepare.js';
import {resultKind, resultValue} from '../mutate/result-value.js';
import {updateWhere} from '../mutate/update-where.js';
import type {ColumnKind, GqlColumn, GqlModel, GqlRequestContext, GqlTable, Row} from '../types.js';
import type {TypesFor} from './table-types.js';

const OPS: WriteOp[] = ['insert', 'update', 'upsert', 'delete'];

const FALLBACK_SCALARS: Partial<Record<ColumnKind, GraphQLInputType>> = {int: GraphQLInt, float: GraphQLFloat, decimal: GraphQLFloat, boolean: GraphQLBoolean};

/** A column's input scalar: the one the query side gives its field (reads and writes agree), else by kind. */
function scalarOf(table: GqlTable, column: GqlColumn, typesFor: TypesFor): GraphQLInputType {
  if (column.file) return GraphQLUpload;
  const field = typesFor(table).object.getFields()[column.name];
  const named = field ? getNamedType(field.type) : undefined;
  if (named && isInputType(named)) return named;
  return FALLBACK_SCALARS[column.kind] ?? GraphQLString;
}

/** Columns a policy may force (tenant, auto-filters): never required from the client. */
function forcedByPolicy(table: GqlTable, column: GqlColumn): boolean {
  return column.dbName === table.tenantColumn || table.autoFilters.some((filter) => filter.column === column.dbName);
}

function required(table: GqlTable, column: GqlColumn, shape: 'insert' | 'update' | 'upsert' | 'delete' | 'set'): boolean {
  switch (shape) {
    case 'insert':
      return !column.nullable && !column.hasDefault && !forcedByPolicy(table, column);
    case 'update':
    case 'delete':
      return column.isPrimaryKey;
    case 'upsert':
      return column.isPrimaryKey && !column.isIdentity;
    case 'set':
      return false;
  }
}

const ROLE: Record<'insert' | 'upsert' | 'set', WriteRole> = {insert: 'insert', upsert: 'upsert', set: 'update-set'};

function accepts(table: GqlTable, column: GqlColumn, shape: 'insert' | 'update' | 'upsert' | 'delete' | 'set'): boolean {
  if (shape === 'delete') return acceptsColumn(table, column, 'key');
  if (shape === 'update') return acceptsColumn(table, column, 'key') || acceptsColumn(table, column, 'update-set');
  return acceptsColumn(table, column, ROLE[shape]);
}

/** GraphQL input objects arrive with a null prototype: plain rows from here on. */
const plain = (value: unknown): Row => ({...(value as Row)});

/**
 * The Mutation type's fields, after the upstream (BifrostQL): per table with a primary key
 *
 *   <t>(insert: Insert_<t>, update: Update_<t>, upsert: Upsert_<t>, delete: Delete_<t>[, updateWhere: UpdateWhere_<t>]): Int | String
 *   <t>_batch(actions: [batch_<t>!]!): Int
 *
 * One argument per call. The answer is a scalar: the key written (insert: the new identity;
 * update, upsert: the key, null when no row was reached), the count deleted for delete and the
 * count updated for updateWhere. It is `Int` when the key is one int column and `String`
 * otherwise (a composite key as JSON text `{"a":1,"b":2}`). `<t>_batch` answers the rows it
 * inserted, updated and deleted. `updateWhere: {set: UpdateSet_<t>!, where: TableFilter<t>Input!}`
 * exists only on tables with `filtered-update: enabled`.
 *
 * Inputs leave out hidden columns, identity columns (insert), populate and soft-delete columns
 * (the service writes them) and `update: none` columns (update, set). In `field` schema display
 * the tables of a schema sit under a `<schema>` field of the Mutation type, as queries do.
 */
export function mutationFields(model: GqlModel, typesFor: TypesFor): GraphQLFieldConfigMap<unknown, GqlRequestContext> {
  const root: GraphQLFieldConfigMap<unknown, GqlRequestContext> = {};
  const bySchemaField = new Map<string, GraphQLFieldConfigMap<unknown, GqlRequestContext>>();
  for (const table of model.tables) {
    if (table.hidden || table.isView || table.primaryKey.length === 0) continue;
    const keys = table.columns.filter((column) => column.isPrimaryKey);
    if (keys.length !== table.primaryKey.length || keys.some((column) => column.hidden)) continue;
    const fields = tableMutationFields(table, typesFor);
    if (table.schemaField === undefined) {
      Object.assign(root, fields);
      continue;
    }
    bySchemaField.set(table.schemaField, {...bySchemaField.get(table.schemaField), ...fields});
  }
  for (const [schemaField, fields] of bySchemaField) {
    root[schemaField] = {
      type: new GraphQLNonNull(new GraphQLObjectType<unknown, GqlRequestContext>({name: `${schemaField}_mutation`, fields})),
      description: `Mutations of the ${schemaField} schema's tables.`,
      resolve: () => ({}),
    };
  }
  return root;
}

function tableMutationFields(table: GqlTable, typesFor: TypesFor): GraphQLFieldConfigMap<unknown, GqlRequestContext> {
  const base = typesFor(table).object.name;
  const input = (name: string, shape: 'insert' | 'update' | 'upsert' | 'delete' | 'set', description: string) => {
    const fields: GraphQLInputFieldConfigMap = {};
    for (const column of table.columns) {
      if (!accepts(table, column, shape)) continue;
      const scalar = scalarOf(table, column, typesFor);
      fields[column.name] = {type: required(table, column, shape) ? new GraphQLNonNull(scalar) : scalar};
    }
    if (shape === 'insert' || shape === 'update' || shape === 'upsert') Object.assign(fields, eavInputFields(table));
    return new GraphQLInputObjectType({name, fields, description});
  };
  const inputs = {
    insert: input(`Insert_${base}`, 'insert', `A new ${table.name} row (identity, audit and hidden columns are filled by the service).`),
    update: input(`Update_${base}`, 'update', `The key of a ${table.name} row and the columns to change.`),
    upsert: input(`Upsert_${base}`, 'upsert', `A ${table.name} row inserted, or updated when its key exists (read-only columns are written on insert only).`),
    delete: input(`Delete_${base}`, 'delete', `The key of the ${table.name} row to delete.`),
  };
  const scalar = resultKind(table) === 'Int' ? GraphQLInt : GraphQLString;
  const args: GraphQLFieldConfig<unknown, GqlRequestContext>['args'] = {
    insert: {type: inputs.insert},
    update: {type: inputs.update},
    upsert: {type: inputs.upsert},
    delete: {type: inputs.delete},
  };
  if (table.filteredUpdate) {
    args.updateWhere = {
      type: new GraphQLInputObjectType({
        name: `UpdateWhere_${base}`,
        description: `Sets columns on every ${table.name} row the filter matches (at most filtered-update-max-affected, ${table.filteredUpdateMaxAffected}).`,
        fields: {
          set: {type: new GraphQLNonNull(input(`UpdateSet_${base}`, 'set', `The columns an updateWhere sets on ${table.name}.`))},
          where: {type: new GraphQLNonNull(typesFor(table).filter)},
        },
      }),
    };
  }

  const single: GraphQLFieldConfig<unknown, GqlRequestContext, Record<string, unknown>> = {
    type: scalar,
    args,
    description: `Insert, update, upsert or delete one ${table.name} row${table.filteredUpdate ? ', or update the rows a filter matches (updateWhere)' : ''}: one argument per call.`,
    async resolve(_source, given, ctx) {
      const present = Object.keys(given).filter((name) => given[name] !== undefined && given[name] !== null);
      if (present.length !== 1) {
        throw new WorkbenchError(
          'invalid_argument',
          `${table.name} takes exactly one of ${Object.keys(args).join(', ')} (got ${present.length === 0 ? 'none' : present.join(', ')})`,
        );
      }
      const op = present[0] as WriteOp | 'updateWhere';
      if (op === 'updateWhere') {
        const request = plain(given.updateWhere);
        const affected = await updateWhere(ctx, table, plain(request.set), plain(request.where));
        return scalar === GraphQLInt ? affected : String(affected);
      }
      return resultValue(table, op, await mutateRow(ctx, table, {op, values: plain(given[op])}));
    },
  };

  const batchAction = new GraphQLInputObjectType({
    name: `batch_${base}`,
    description: `One action of a ${table.name} batch: exactly one of insert, update, upsert, delete.`,
    fields: {insert: {type: inputs.insert}, update: {type: inputs.update}, upsert: {type: inputs.upsert}, delete: {type: inputs.delete}},
  });
  const batch: GraphQLFieldConfig<unknown, GqlRequestContext, {actions: Array<Record<string, unknown>>}> = {
    type: GraphQLInt,
    args: {actions: {type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(batchAction)))}},
    description:
      `Several ${table.name} writes in one transaction, all or nothing; answers the rows inserted, updated and deleted. ` +
      `Actions on one key resolve first (batch-duplicate-policy: ${table.batchDuplicatePolicy}).`,
    async resolve(_source, {actions}, ctx) {
      const writes = actions.map((action, index): WriteAction => {
        const present = OPS.filter((op) => action[op] !== undefined && action[op] !== null);
        if (present.length !== 1) throw new WorkbenchError('invalid_argument', `${table.name}_batch action ${index + 1} must hold exactly one of insert, update, upsert, delete`);
        const op = present[0] as WriteOp;
        return {op, values: plain(action[op])};
      });
      return (await runBatch(ctx, table, writes)).affected;
    },
  };

  return withFileUploads(table, {[table.name]: single, [`${table.name}_batch`]: batch});
}
