import type {Knex} from 'knex';
import {dialectOf} from '../../dialect/dialect-of.js';
import type {GqlModel, ModelProblem, Provider} from '../../types.js';
import {TRIGGER_PREFIX, triggerPlans} from './shape.js';
import {isTriggerProvider, TRIGGER_WRITERS} from './writers.js';

/** The `wb_cdc_` triggers the database holds, by the `schema.table` they are on. */
export type InstalledTriggers = Map<string, Set<string>>;

/** Reads the installed `wb_cdc_` triggers from the catalog (empty on a provider that gets none). */
export async function installedTriggers(db: Knex, provider: Provider): Promise<InstalledTriggers> {
  const found: InstalledTriggers = new Map();
  if (!isTriggerProvider(provider)) return found;
  // The prefix is matched here, not with LIKE: `_` is a LIKE wildcard and each database escapes it its own way.
  const rows = dialectOf(provider).rowsOf(await db.raw(TRIGGER_WRITERS[provider].catalogSql)) as Array<{name: string; schema: string; table: string}>;
  for (const row of rows) {
    if (!row.name.startsWith(TRIGGER_PREFIX)) continue;
    const key = `${row.schema}.${row.table}`;
    found.set(key, (found.get(key) ?? new Set()).add(row.name));
  }
  return found;
}

/**
 * Marks each emitting table whose triggers are installed `capture: 'trigger'`: the trigger writes
 * the event in the statement's own transaction, so the service must not write a second one. A
 * table with some but not exactly the triggers its emit-events needs is a problem — left alone it
 * would lose the missing operations' events, or double them — to fix by re-installing.
 */
export function markTriggerCapture(model: GqlModel, installed: InstalledTriggers, problems: ModelProblem[]): void {
  if (!isTriggerProvider(model.provider)) return;
  for (const table of model.tables) {
    if (!table.events) continue;
    const have = installed.get(table.key);
    if (!have || have.size === 0) continue;
    const want = triggerPlans(model.provider, table).map((plan) => plan.name);
    const exact = want.length === have.size && want.every((name) => have.has(name));
    if (!exact) {
      problems.push({
        message: `${table.key} has change-event triggers that do not match its emit-events (installed: ${[...have].sort().join(', ')}; needed: ${want.join(', ')}): run \`workbench gql events install-triggers\` again, or \`--uninstall\` them`,
        target: table.key,
      });
      continue;
    }
    table.events.capture = 'trigger';
  }
}
