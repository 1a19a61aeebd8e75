import type {Knex} from 'knex';

// knex require()s its dialect drivers by name (pg, mysql2, better-sqlite3, and ones we never
// install); a bundler cannot follow that, so knex loads from node_modules at run time. The
// specifier sits in a variable so esbuild leaves the import alone.
const knexPackage = 'knex';

export type KnexFactory = (config: Knex.Config) => Knex;

let factory: Promise<KnexFactory> | undefined;

export function loadKnex(): Promise<KnexFactory> {
  factory ??= import(knexPackage).then((module: {default: KnexFactory}) => module.default);
  return factory;
}
