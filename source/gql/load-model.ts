import type {Knex} from 'knex';
import {installedTriggers, markTriggerCapture} from './events/triggers/detect.js';
import {introspect as introspectDatabase} from './introspect/index.js';
import {parseRules} from './metadata/parse-rules.js';
import {resolveMetadata} from './metadata/resolve-metadata.js';
import {buildModel} from './model/build-model.js';
import type {DbModel, GqlModel, GqlSettings, ModelProblem, Provider} from './types.js';

export type Introspect = (db: Knex, provider: Provider) => Promise<DbModel>;

/**
 * The model a service serves: the live database read (introspect), the metadata rules parsed
 * and resolved against it, the model built. Problems of every stage come back together — the
 * server refuses to start on any, `gql check` prints them all.
 * `introspect` is source/gql/introspect unless a test passes its own. When tables emit events, the
 * installed change-event triggers are read too: their tables' events are the triggers' to write.
 */
export async function loadModel(db: Knex, settings: Pick<GqlSettings, 'provider' | 'metadata'>, introspect?: Introspect): Promise<{model: GqlModel; problems: ModelProblem[]}> {
  const dbModel = await (introspect ?? introspectDatabase)(db, settings.provider);
  const loaded = modelFrom(dbModel, settings.metadata);
  if (loaded.model.events && loaded.model.tables.some((table) => table.events)) markTriggerCapture(loaded.model, await installedTriggers(db, settings.provider), loaded.problems);
  return loaded;
}

/** The pure half of loadModel: a DbModel and rule strings → the model and every problem. */
export function modelFrom(dbModel: DbModel, metadata: readonly string[]): {model: GqlModel; problems: ModelProblem[]} {
  const parsed = parseRules(metadata);
  const resolved = resolveMetadata(parsed.rules, dbModel);
  const built = buildModel(dbModel, resolved);
  return {model: built.model, problems: [...parsed.problems, ...built.problems]};
}
