import {WorkbenchError} from '../../core/errors.js';
import type {daemonMethods} from '../protocol/daemon.js';
import type {Handlers} from './context.js';
import {futureKey} from './scope.js';

export const daemonHandlers: Handlers<keyof typeof daemonMethods> = {
  ping: (_params, {startedAt, survivors}) => ({pid: process.pid, startedAt, version: 1, survivors: survivors()}),
  'daemon.stop': (_params, context) => {
    setImmediate(() => context.shutdown());
    return {stopping: true};
  },
  'events.subscribe': ({topic, id, project}, context) => {
    if (id !== undefined && topic !== 'output') throw new WorkbenchError('invalid_argument', `events.subscribe: id: only the output topic is per process`);
    // A process id need not exist yet: subscribing before `proc.start` misses no early output.
    context.subscribe(topic, id === undefined ? undefined : futureKey(context, project, id));
    return {topic};
  },
  'events.unsubscribe': ({topic, id, project}, context) => {
    context.unsubscribe(topic, id === undefined ? undefined : futureKey(context, project, id));
    return {topic};
  },
};
