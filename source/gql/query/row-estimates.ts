import type {Knex} from 'knex';
import type {GqlModel} from '../types.js';

// Tables grow while a server runs: the estimates the cost bound reads are taken again this often.
const REFRESH_MS = 60_000;
// A table the catalogue has no figure for is counted up to this many rows; beyond, it is left unknown.
const COUNT_BOUND = 100_000;

/**
 * How many rows each table holds, roughly, for the cost bound (cost.ts): the catalogue's own
 * estimate where the database keeps one (PostgreSQL `reltuples`, MySQL `table_rows`), SQLite's
 * largest rowid (one index probe). Unknown (a view, a table never analysed) stays unset: the
 * limits alone bound it. Taken at open, then every minute in the background.
 */
export function watchRowEstimates(db: Knex, model: GqlModel): {ready: Promise<void>; stop(): void} {
  let stopped = false;
  const take = async () => {
    try {
      const estimates = await readEstimates(db, model);
      if (stopped) return;
      for (const table of model.tables) {
        const rows = estimates.get(table.key);
        if (rows === undefined) delete table.rowEstimate;
        else table.rowEstimate = rows;
      }
    } catch {
      // A catalogue that cannot be read leaves the limits alone to bound queries.
    }
  };
  const timer = setInterval(() => void take(), REFRESH_MS);
  timer.unref();
  return {
    ready: take(),
    stop: () => {
      stopped = true;
      clearInterval(timer);
    },
  };
}

async function readEstimates(db: Knex, model: GqlModel): Promise<Map<string, number>> {
  const found = new Map<string, number>();
  if (model.provider === 'postgres') {
    const result = await db.raw(
      `select n.nspname as schema, c.relname as name, c.reltuples as rows from pg_class c join pg_namespace n on n.oid = c.relnamespace where c.relkind in ('r', 'p', 'm')`,
    );
    const never: string[] = [];
    for (const row of (result as {rows: Array<{schema: string; name: string; rows: number}>}).rows) {
      const key = `${row.schema}.${row.name}`;
      // -1: never vacuumed or analysed (a table just made and filled): counted, up to a bound.
      if (Number(row.rows) >= 0) found.set(key, Math.ceil(Number(row.rows)));
      else never.push(key);
    }
    for (const table of model.tables.filter((each) => never.includes(each.key))) {
      const counted = await db.raw(`select count(*)::int as n from (select 1 from ${quotePg(table.schema)}.${quotePg(table.dbName)} limit ${COUNT_BOUND + 1}) rows`);
      const n = Number((counted as {rows: Array<{n: number}>}).rows[0]?.n ?? 0);
      if (n <= COUNT_BOUND) found.set(table.key, n);
    }
  } else if (model.provider === 'mysql') {
    const [rows] = (await db.raw(
      `select table_schema as \`schema\`, table_name as name, table_rows as \`rows\` from information_schema.tables where table_type = 'BASE TABLE'`,
    )) as [Array<{schema: string; name: string; rows: number | null}>];
    for (const row of rows) if (row.rows !== null) found.set(`${row.schema}.${row.name}`, Number(row.rows));
  } else if (model.provider === 'sqlite') {
    for (const table of model.tables) {
      try {
        const rows = (await db.raw(`select max(rowid) as n from "${table.dbName.replaceAll('"', '""')}"`)) as Array<{n: number | null}>;
        found.set(table.key, Math.max(0, Number(rows[0]?.n ?? 0)));
      } catch {
        // A view or a WITHOUT ROWID table: unknown.
      }
    }
  }
  return found;
}

function quotePg(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
