import {mysqlTriggers} from './mysql.js';
import {postgresTriggers} from './postgres.js';
import type {TriggerProvider, TriggerWriter} from './shape.js';
import {sqliteTriggers} from './sqlite.js';

/** Each database's triggers, by provider: the ones that get triggers are the keys (SQL Server's service path is its only capture). */
export const TRIGGER_WRITERS: Readonly<Record<TriggerProvider, TriggerWriter>> = {postgres: postgresTriggers, mysql: mysqlTriggers, sqlite: sqliteTriggers};

export const isTriggerProvider = (provider: string): provider is TriggerProvider => Object.hasOwn(TRIGGER_WRITERS, provider);
