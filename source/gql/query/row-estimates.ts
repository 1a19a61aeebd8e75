import type {Knex} from 'knex';
import {dialectOf} from '../dialect/dialect-of.js';
import type {GqlModel} from '../types.js';

// Tables grow while a server runs: the estimates the cost bound reads are taken again this often.
const REFRESH_MS = 60_000;

/**
 * How many rows each table holds, roughly, for the cost bound (cost.ts): the catalogue's own
 * estimate where the database keeps one (PostgreSQL `reltuples`, MySQL `table_rows`), SQLite's
 * largest rowid (one index probe): each its dialect's `rowEstimates`. Unknown (a view, a table never analysed) stays unset: the
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

function readEstimates(db: Knex, model: GqlModel): Promise<Map<string, number>> {
  return dialectOf(model.provider).rowEstimates(db, model.tables);
}
