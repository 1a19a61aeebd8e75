import {queryIncidents} from '../../incidents/incidents.js';
import {queryErrors} from '../../incidents/query.js';
import {parseKey} from '../../processes/project-key.js';
import type {incidentMethods} from '../protocol/incidents.js';
import type {Handlers} from './context.js';
import {errorScope, inView, processKey} from './scope.js';

export const incidentHandlers: Handlers<keyof typeof incidentMethods> = {
  'errors.query': ({project, ...query}, {inbox, shared}) => {
    const scope = errorScope(project, query.process_id);
    return queryErrors(inbox.sources(scope.project, shared), {...query, process_id: scope.processId});
  },
  'incidents.query': ({project}, {inbox, shared}) => queryIncidents(inbox.sources(project ?? '', shared)),
  'incidents.marks': (_params, {inbox}) => inbox.marks.list(),
  'incidents.mark_read': ({incidents}, {inbox}) => ({marked: inbox.marks.mark(incidents)}),
  'alerts.list': ({id, project}, context) => {
    const alerts =
      id === undefined
        ? context.supervisor.alerts.list().filter((alert) => inView(context, project, parseKey(alert.processId).project))
        : context.supervisor.alerts.list(processKey(context, project, id));
    return alerts.map((alert) => ({...alert, processId: parseKey(alert.processId).id}));
  },
};
