import {readChatSchema} from '../chat/chat-schema.js';
import {applyEavRules} from '../eav/eav-options.js';
import {modelEvents, tableEvents} from '../events/event-options.js';
import {misplacedFeedKeys, tableFeed} from '../feed-surface/feed-options.js';
import {applyFileColumns} from '../files/file-options.js';
import {KEY, KEY_SCOPES, ROOT_SELECTOR, type Scope} from '../metadata/keys.js';
import type {DbModel, DbTable, GqlColumn, GqlModel, GqlProcedure, GqlTable, ModelProblem, ResolvedMetadata} from '../types.js';
import {columnJoins, manyToManyLinks, type Resolve, tableJoins} from './join-rules.js';
import {foreignKeyLinks, nameLinks, nameMatchLinks, type PendingLink, tableKey} from './links.js';
import {modelOptions, type ModelOptions} from './model-options.js';
import {bifrostName, dePluralize, graphqlName, prefixName, uniqueNames} from './names.js';
import {PropertyReader} from './property-reader.js';
import {columnOptions, tableOptions} from './table-options.js';

const EMPTY_METADATA: ResolvedMetadata = {model: {}, tables: new Map(), columns: new Map()};

/**
 * The model served (spec 3): the live database's tables shaped by the resolved metadata —
 * GraphQL names, links, limits and policies. Every problem is collected, none thrown: the
 * server refuses to start on any, `gql check` lists them all.
 */
export function buildModel(db: DbModel, resolved: ResolvedMetadata = EMPTY_METADATA): {model: GqlModel; problems: ModelProblem[]} {
  const problems: ModelProblem[] = [];
  const rootRead = new PropertyReader(ROOT_SELECTOR, resolved.model, resolved, problems);
  checkScopes(rootRead, 'model');
  misplacedFeedKeys(rootRead, 'model');
  const options = modelOptions(rootRead, db.defaultSchema);

  const dbByKey = new Map(db.tables.map((table) => [tableKey(table), table]));
  const tables = db.tables.map((table) => buildTable(table, options, db.defaultSchema, resolved, problems));
  const byKey = new Map(tables.map((table) => [table.key, table]));
  // Before names and links: the outbox table is hidden from the schema.
  const events = modelEvents(rootRead, db, tables, problems);
  applyEavRules(db, tables, resolved, problems);
  applyFileColumns(tables, resolved, problems);

  addLinks(db, dbByKey, byKey, options, resolved, problems);

  const byName = new Map<string, GqlTable>();
  for (const table of tables) {
    if (table.hidden) continue;
    const clash = byName.get(table.name);
    if (clash) {
      problems.push({
        message: `tables ${clash.key} and ${table.key} would both be named ${table.name} in the GraphQL schema: hide one, or use schema-display: prefix (or schema-prefix: enabled)`,
        target: table.key,
      });
      continue;
    }
    byName.set(table.name, table);
  }

  const procedures = buildProcedures(db, options, new Set(byName.keys()), problems);
  const model: GqlModel = {
    provider: db.provider,
    defaultSchema: db.defaultSchema,
    tables,
    byKey,
    byName,
    procedures,
    maxQueryRows: options.maxQueryRows,
    maxQueryCost: options.maxQueryCost,
    maxQueryDepth: options.maxQueryDepth,
    statementTimeoutSeconds: options.statementTimeoutSeconds,
    defaultLimit: options.defaultLimit,
    tenantContextKey: options.tenantContextKey,
    ...(options.autoFilterBypassRole ? {autoFilterBypassRole: options.autoFilterBypassRole} : {}),
    rawSql: options.rawSql,
    genericTable: options.genericTable,
    schemaDisplay: options.schemaDisplay,
    ...(options.schemaDefault ? {schemaDefault: options.schemaDefault} : {}),
    schemaExcluded: options.schemaExcluded,
    conventions: options.conventions,
    ...(events ? {events} : {}),
    meta: {...resolved.model},
  };
  readChatSchema(model, resolved, problems, db);
  return {model, problems};
}

function buildTable(table: DbTable, options: ModelOptions, defaultSchema: string, resolved: ResolvedMetadata, problems: ModelProblem[]): GqlTable {
  const key = tableKey(table);
  const props = resolved.tables.get(key) ?? {};
  const read = new PropertyReader(key, props, resolved, problems);
  checkScopes(read, 'table');
  const primary = new Set(table.primaryKey);
  const bifrost = options.conventions === 'bifrost';
  const columnNames = bifrost ? uniqueNames(table.columns.map((column) => bifrostName(column.name, 'col'))) : table.columns.map((column) => graphqlName(column.name));
  const columns: GqlColumn[] = table.columns.map((column, index) => {
    const columnKey = `${key}.${column.name}`;
    const columnRead = new PropertyReader(columnKey, resolved.columns.get(columnKey) ?? {}, resolved, problems);
    checkScopes(columnRead, 'column');
    misplacedFeedKeys(columnRead, 'column');
    return {
      dbName: column.name,
      name: columnNames[index] as string,
      kind: column.kind,
      dataType: column.dataType,
      nullable: column.nullable,
      isPrimaryKey: primary.has(column.name),
      isIdentity: column.isIdentity,
      hasDefault: column.hasDefault,
      ...columnOptions(columnRead),
      meta: {...columnRead.props},
    };
  });
  const behaviour = tableOptions(table, read, columns);
  const events = tableEvents(read);

  let name = bifrost ? bifrostName(table.name, 'tbl') : graphqlName(table.name);
  if (options.dePluralize) name = dePluralize(name);
  if (options.prefix && table.schema.toLowerCase() !== options.prefix.unprefixed.toLowerCase()) name = prefixName(options.prefix.format, table.schema, name);
  let schemaField: string | undefined;
  let hidden = behaviour.hidden;
  if (options.schemaDisplay === 'field') {
    // Field mode: each schema a field of its own; the default schema's tables stay at the root.
    const rootSchema = options.schemaDefault ?? defaultSchema;
    if (table.schema.toLowerCase() !== rootSchema.toLowerCase()) schemaField = graphqlName(table.schema);
    if (options.schemaExcluded.some((schema) => schema.toLowerCase() === table.schema.toLowerCase())) hidden = true;
  }
  const feed = tableFeed(read, table, columns, hidden);
  return {
    key,
    schema: table.schema,
    dbName: table.name,
    name,
    ...(schemaField ? {schemaField} : {}),
    columns,
    primaryKey: [...table.primaryKey],
    links: [],
    isView: table.isView,
    ...behaviour,
    hidden,
    ...(events ? {events} : {}),
    ...(feed ? {feed} : {}),
    meta: {...props},
  };
}

/** Foreign-key, name-match, `join` and `many-to-many` links, named per table; links touching a hidden table are dropped. */
function addLinks(db: DbModel, dbByKey: Map<string, DbTable>, byKey: Map<string, GqlTable>, options: ModelOptions, resolved: ResolvedMetadata, problems: ModelProblem[]): void {
  const resolve = tableResolver(db);
  const pending: PendingLink[] = [];
  const inferOn = (table: DbTable): boolean => {
    const read = new PropertyReader(tableKey(table), resolved.tables.get(tableKey(table)) ?? {}, resolved, []);
    return read.boolean(KEY.autoJoin, options.autoJoin);
  };
  const explicit: PendingLink[] = [];
  for (const table of db.tables) {
    const key = tableKey(table);
    const read = new PropertyReader(key, resolved.tables.get(key) ?? {}, resolved, problems);
    const join = read.props[KEY.join];
    if (join !== undefined) {
      const outcome = tableJoins(table, join, resolve);
      explicit.push(...outcome.links.map((link) => ({...link, declaredAt: key})));
      for (const error of outcome.errors) read.problem(KEY.join, error, false);
    }
    const manyToMany = read.props[KEY.manyToMany];
    if (manyToMany !== undefined) {
      const outcome = manyToManyLinks(table, manyToMany, resolve);
      explicit.push(...outcome.links);
      for (const error of outcome.errors) read.problem(KEY.manyToMany, error, false);
    }
    for (const column of table.columns) {
      const columnKey = `${key}.${column.name}`;
      const columnJoin = resolved.columns.get(columnKey)?.[KEY.join];
      if (columnJoin === undefined) continue;
      const outcome = columnJoins(table, column.name, columnJoin, resolve);
      explicit.push(...outcome.links.map((link) => ({...link, declaredAt: columnKey})));
      const columnRead = new PropertyReader(columnKey, resolved.columns.get(columnKey) ?? {}, resolved, problems);
      for (const error of outcome.errors) columnRead.problem(KEY.join, error, false);
    }
  }
  const inferring = db.tables.filter(inferOn);
  const inferSet = new Set(inferring);
  if (options.foreignJoins) {
    for (const table of inferring)
      pending.push(...foreignKeyLinks(table, dbByKey).filter((link) => inferSet.has(dbByKey.get(link.target)!) && inferSet.has(dbByKey.get(link.source)!)));
  }
  // Name matches never duplicate a relation already declared by a key or a join rule.
  const covered = (table: DbTable, columns: string[]): boolean =>
    [...pending, ...explicit].some(
      (link) => link.source === tableKey(table) && link.sourceColumns.length === columns.length && link.sourceColumns.every((c, i) => c === columns[i]),
    );
  for (const table of inferring) pending.push(...nameMatchLinks(table, inferring, covered));
  pending.push(...explicit);

  const bySource = new Map<string, PendingLink[]>();
  for (const link of pending) {
    const source = byKey.get(link.source)!;
    const target = byKey.get(link.target)!;
    const junction = link.via ? byKey.get(link.via.junction) : undefined;
    // Hidden tables are not in the schema: no link may reach them (a junction may be hidden: it is only passed through).
    if (source.hidden || target.hidden || (link.via && !junction)) continue;
    bySource.set(link.source, [...(bySource.get(link.source) ?? []), link]);
  }
  for (const [key, links] of bySource) {
    const table = byKey.get(key)!;
    table.links = nameLinks(
      links,
      table.columns.map((column) => column.name),
      (target) => byKey.get(target)!.name,
    );
    const seen = new Map<string, PendingLink>();
    for (const [index, link] of table.links.entries()) {
      const name = link.name.toLowerCase();
      const earlier = seen.get(name);
      if (earlier || table.columns.some((column) => column.name.toLowerCase() === name)) {
        const at = links[index].declaredAt ?? key;
        const read = new PropertyReader(at, (at === key ? resolved.tables.get(at) : resolved.columns.get(at)) ?? {}, resolved, problems);
        read.problem(KEY.join, `join "${links[index].declaredBy ?? link.name}": the name ${link.name} is already a column or another link of ${key}`, false);
      }
      seen.set(name, links[index]);
    }
  }
}

/** `table` (same schema first, then the only schema holding that name) or `schema.table`, case-insensitive. */
function tableResolver(db: DbModel): Resolve {
  return (name, from) => {
    const lower = name.trim().toLowerCase();
    const exact = db.tables.find((table) => tableKey(table).toLowerCase() === lower);
    if (exact) return exact;
    const sameSchema = db.tables.find((table) => table.schema === from.schema && table.name.toLowerCase() === lower);
    if (sameSchema) return sameSchema;
    const anywhere = db.tables.filter((table) => table.name.toLowerCase() === lower);
    return anywhere.length === 1 ? anywhere[0] : undefined;
  };
}

/**
 * Stored procedures kept by `sp-include` (when set) and not dropped by `sp-exclude`; each regex is
 * tried against the name and against `schema.name`. Named like upstream: the procedure's name,
 * prefixed `<schema>_` outside the default schema; a name a table already has gets `_sp`.
 */
function buildProcedures(db: DbModel, options: ModelOptions, tableNames: Set<string>, problems: ModelProblem[]): GqlProcedure[] {
  const procedures: GqlProcedure[] = [];
  const taken = new Set(tableNames);
  for (const procedure of db.procedures) {
    const qualified = `${procedure.schema}.${procedure.name}`;
    const matches = (pattern: {test(text: string): boolean}) => pattern.test(procedure.name) || pattern.test(qualified);
    if (options.spInclude && !matches(options.spInclude)) continue;
    if (options.spExclude && matches(options.spExclude)) continue;
    let name = graphqlName(procedure.schema === db.defaultSchema ? procedure.name : `${procedure.schema}_${procedure.name}`);
    if (taken.has(name)) name = `${name}_sp`;
    if (taken.has(name)) {
      problems.push({message: `stored procedure ${qualified} would be named ${name}, which is already taken: exclude it with sp-exclude`, target: qualified});
      continue;
    }
    taken.add(name);
    procedures.push({schema: procedure.schema, dbName: procedure.name, name, params: procedure.params, returnsRows: procedure.returnsRows});
  }
  return procedures;
}

/** A key of this issue written where it does not apply (`max-query-rows` on a table) is a problem. */
function checkScopes(read: PropertyReader, scope: Scope): void {
  for (const key of Object.keys(read.props)) {
    const scopes = KEY_SCOPES[key];
    if (scopes && !scopes.includes(scope)) {
      const where = scopes.map((item) => (item === 'model' ? 'the model (:root)' : `a ${item}`)).join(' or ');
      read.problem(key, `applies to ${where}, not to a ${scope === 'model' ? 'model' : scope}`);
    }
  }
}
