import {queryIncidents} from '../../incidents/incidents.js';
import {queryErrors} from '../../incidents/query.js';
import {ReadMarks} from '../../incidents/seen.js';
import type {ErrorSources} from '../../incidents/types.js';
import type {Supervisor} from '../../processes/supervisor.js';
import type {incidentMethods} from '../protocol/incidents.js';
import type {Handlers} from './context.js';

export function errorSources(supervisor: Supervisor): ErrorSources {
  // Proxies join here when the dev proxy arrives; until then the inbox holds process alerts.
  return {processAlerts: supervisor.alerts.list(), proxies: [], processIds: supervisor.ids(), processRuns: supervisor.runs()};
}

// One set of read marks per daemon (tests run several daemons in one process).
const readMarks = new WeakMap<Supervisor, ReadMarks>();
function marksOf(supervisor: Supervisor): ReadMarks {
  let marks = readMarks.get(supervisor);
  if (!marks) readMarks.set(supervisor, (marks = new ReadMarks()));
  return marks;
}

export const incidentHandlers: Handlers<keyof typeof incidentMethods> = {
  'errors.query': (query, {supervisor}) => queryErrors(errorSources(supervisor), query),
  'incidents.query': (_params, {supervisor}) => queryIncidents(errorSources(supervisor)),
  'incidents.marks': (_params, {supervisor}) => marksOf(supervisor).list(),
  'incidents.mark_read': ({incidents}, {supervisor}) => ({marked: marksOf(supervisor).mark(incidents)}),
  'alerts.list': ({id}, {supervisor}) => supervisor.alerts.list(id),
};
