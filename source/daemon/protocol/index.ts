import type {z} from 'zod';
import {daemonMethods} from './daemon.js';
import {incidentMethods} from './incidents.js';
import {processMethods} from './processes.js';
import {proxyMethods} from './proxies.js';

export type {DaemonEvent, DaemonEvents, Topic} from './events.js';
export type {PingResult, SurvivingProcess} from './daemon.js';

/**
 * Every daemon method, by area. The daemon validates params with these schemas before a handler
 * runs; `DaemonClient.call` takes its params and result types from the same entries, so the two
 * ends cannot drift.
 */
export const protocol = {...daemonMethods, ...processMethods, ...proxyMethods, ...incidentMethods};

export type Protocol = typeof protocol;
export type MethodName = keyof Protocol;
/** Params as a caller writes them (optional fields may be left out). */
export type ParamsIn<M extends MethodName> = z.input<Protocol[M]['params']>;
/** Params as a handler receives them, after validation. */
export type Params<M extends MethodName> = z.output<Protocol[M]['params']>;
export type Result<M extends MethodName> = Protocol[M]['result'];
/** `call('proc.list')` needs no params; `call('proc.get', {id})` does. */
// `{} extends T`: every field of T is optional (the one type that says so).
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export type ParamsArgs<M extends MethodName> = {} extends ParamsIn<M> ? [params?: ParamsIn<M>] : [params: ParamsIn<M>];

export function isMethod(name: string): name is MethodName {
  return Object.hasOwn(protocol, name);
}
