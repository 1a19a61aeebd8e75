import type {DbTable, GqlLink} from '../types.js';
import {graphqlName} from './names.js';

/** A relationship before it has its field name. */
export interface PendingLink extends Omit<GqlLink, 'name'> {
  source: string;
  /** A name the user wrote in a join rule: kept as is. */
  explicitName?: string;
  /** Where it came from, for problems: the declaration and the target whose `join` property holds it. */
  declaredBy?: string;
  declaredAt?: string;
}

export function tableKey(table: {schema: string; name: string}): string {
  return `${table.schema}.${table.name}`;
}

function sameColumns(a: string[], b: string[]): boolean {
  if (a.length !== b.length) return false;
  const set = new Set(b.map((column) => column.toLowerCase()));
  return a.every((column) => set.has(column.toLowerCase()));
}

/** Whether `columns` are exactly the table's primary key: a link to them finds at most one row. */
export function isPrimaryKey(table: DbTable, columns: string[]): boolean {
  return table.primaryKey.length > 0 && sameColumns(table.primaryKey, columns);
}

/**
 * A relationship in both directions: the child's single link to the parent and the parent's
 * many link to its children. When the parent's columns are not its key, both sides are `many`.
 */
export function bothWays(child: DbTable, childColumns: string[], parent: DbTable, parentColumns: string[], origin: GqlLink['origin']): PendingLink[] {
  const childKey = tableKey(child);
  const parentKey = tableKey(parent);
  const toParent: PendingLink = {
    source: childKey,
    kind: isPrimaryKey(parent, parentColumns) ? 'single' : 'many',
    target: parentKey,
    sourceColumns: childColumns,
    targetColumns: parentColumns,
    origin,
  };
  const toChildren: PendingLink = {
    source: parentKey,
    kind: isPrimaryKey(child, childColumns) ? 'single' : 'many',
    target: childKey,
    sourceColumns: parentColumns,
    targetColumns: childColumns,
    origin,
  };
  return [toParent, toChildren];
}

/** Foreign keys, both ways. */
export function foreignKeyLinks(table: DbTable, byKey: Map<string, DbTable>): PendingLink[] {
  const links: PendingLink[] = [];
  for (const fk of table.foreignKeys) {
    const parent = byKey.get(`${fk.refSchema}.${fk.refTable}`);
    if (!parent) continue; // a key to a table the model does not hold (another database, a filtered schema)
    links.push(...bothWays(table, fk.columns, parent, fk.refColumns, 'foreign-key'));
  }
  return links;
}

/**
 * Upstream's name match: a column named like another table's single-column primary key joins to
 * it (`orders.customerId` → `customers.customerId`). Skipped when the column is the table's own
 * whole key, when a foreign key already covers it, or when several tables share that key name.
 */
export function nameMatchLinks(table: DbTable, candidates: DbTable[], covered: (table: DbTable, columns: string[]) => boolean): PendingLink[] {
  const links: PendingLink[] = [];
  const byKeyName = new Map<string, DbTable[]>();
  for (const other of candidates) {
    if (other.primaryKey.length !== 1 || other === table) continue;
    const name = other.primaryKey[0].toLowerCase();
    byKeyName.set(name, [...(byKeyName.get(name) ?? []), other]);
  }
  for (const column of table.columns) {
    if (table.primaryKey.length === 1 && table.primaryKey[0] === column.name) continue;
    const parents = byKeyName.get(column.name.toLowerCase()) ?? [];
    if (parents.length !== 1 || covered(table, [column.name])) continue;
    links.push(...bothWays(table, [column.name], parents[0], parents[0].primaryKey, 'name-match'));
  }
  return links;
}

/**
 * Field names for one table's links, unique against each other and the table's columns.
 * A link is named for the table it reaches (`Customer.Employee`, `Employee.Customer`). When two
 * links of a table would share a name, or a link's name is a column's, every link of that name
 * says which columns it follows: a single link `<Target>_by_<columns>` (the row those columns
 * point to), a many link `<Target>_via_<columns>` (the rows whose columns point here). Chinook's
 * Employee gets `Employee_by_ReportsTo` (the manager), `Employee_via_ReportsTo` (the reports)
 * and `Customer` (via SupportRepId: the only link of that name). A clash left after that takes
 * `_2`, `_3`… in the order the links were found. Names a join rule gives are kept as written.
 */
export function nameLinks(links: PendingLink[], columnNames: string[], targetName: (key: string) => string): GqlLink[] {
  const taken = new Set(columnNames.map((name) => name.toLowerCase()));
  for (const link of links) if (link.explicitName) taken.add(link.explicitName.toLowerCase());
  const base = links.map((link) => link.explicitName ?? targetName(link.target));
  const counts = new Map<string, number>();
  for (const [index, name] of base.entries()) if (!links[index].explicitName) counts.set(name.toLowerCase(), (counts.get(name.toLowerCase()) ?? 0) + 1);
  const named: GqlLink[] = [];
  for (const [index, link] of links.entries()) {
    let name = base[index];
    if (!link.explicitName) {
      const clash = (counts.get(name.toLowerCase()) ?? 0) > 1 || taken.has(name.toLowerCase());
      if (clash) name = graphqlName(`${name}_${link.kind === 'single' ? 'by' : 'via'}_${followed(link)}`);
      let unique = name;
      for (let suffix = 2; taken.has(unique.toLowerCase()); suffix++) unique = `${name}_${suffix}`;
      name = unique;
      taken.add(name.toLowerCase());
    }
    const {source: _source, explicitName: _explicit, declaredBy: _declared, declaredAt: _at, ...rest} = link;
    named.push({name, ...rest});
  }
  return named;
}

/** What a link follows, for its disambiguated name: the key columns on the child's side, or the junction. */
function followed(link: PendingLink): string {
  if (link.via) return link.via.junction.slice(link.via.junction.indexOf('.') + 1);
  return (link.kind === 'single' ? link.sourceColumns : link.targetColumns).join('_');
}
