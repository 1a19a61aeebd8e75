import type {ProxyManager} from '../../devproxy/manager.js';
import {queryIncidents} from '../../incidents/incidents.js';
import {queryErrors} from '../../incidents/query.js';
import {ReadMarks} from '../../incidents/seen.js';
import type {ErrorSources} from '../../incidents/types.js';
import type {Supervisor} from '../../processes/supervisor.js';
import type {incidentMethods} from '../protocol/incidents.js';
import type {Handlers} from './context.js';

/** The inbox's input: the supervisor's alert ring and each running proxy's traffic log. */
export function errorSources(supervisor: Supervisor, proxies: ProxyManager): ErrorSources {
  return {processAlerts: supervisor.alerts.list(), proxies: proxies.records(), processIds: supervisor.ids(), processRuns: supervisor.runs()};
}

// One set of read marks per daemon (tests run several daemons in one process).
const readMarks = new WeakMap<Supervisor, ReadMarks>();
function marksOf(supervisor: Supervisor): ReadMarks {
  let marks = readMarks.get(supervisor);
  if (!marks) readMarks.set(supervisor, (marks = new ReadMarks()));
  return marks;
}

export const incidentHandlers: Handlers<keyof typeof incidentMethods> = {
  'errors.query': (query, {supervisor, proxies}) => queryErrors(errorSources(supervisor, proxies), query),
  'incidents.query': (_params, {supervisor, proxies}) => queryIncidents(errorSources(supervisor, proxies)),
  'incidents.marks': (_params, {supervisor}) => marksOf(supervisor).list(),
  'incidents.mark_read': ({incidents}, {supervisor}) => ({marked: marksOf(supervisor).mark(incidents)}),
  'alerts.list': ({id}, {supervisor}) => supervisor.alerts.list(id),
};
