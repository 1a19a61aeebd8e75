import type {Knex} from 'knex';

// knex require()s its dialect drivers by name, which a bundler cannot follow, so knex and the
// drivers stay outside the bundle (scripts/build.mjs `external`) and load on first use.
export type KnexFactory = (config: Knex.Config) => Knex;

let factory: Promise<KnexFactory> | undefined;

export function loadKnex(): Promise<KnexFactory> {
  factory ??= import('knex').then((module) => (module as unknown as {default: KnexFactory}).default);
  return factory;
}
