import {selectOutput} from '../../processes/output-ring.js';
import {stripAnsi} from '../../text/ansi.js';
import {compileUserPattern} from '../../processes/user-pattern.js';
import type {processMethods} from '../protocol/processes.js';
import type {Handlers} from './context.js';
import {listInView, processKey} from './scope.js';

export const processHandlers: Handlers<keyof typeof processMethods> = {
  'proc.start': ({project, ...request}, {supervisor}) => supervisor.start({...request, project: project ?? ''}),
  'proc.list': ({project, all}, context) => (all ? context.supervisor.list() : listInView(context, project)),
  'proc.get': ({id, project}, context) => context.supervisor.get(processKey(context, project, id)),
  'proc.output': ({id, tail, grep, raw, project}, context) => {
    // Compiled before the ring is read: a bad pattern is an error even for an unknown process.
    const matcher = grep === undefined ? undefined : compileUserPattern(grep);
    const {text, end} = context.supervisor.outputWithEnd(processKey(context, project, id));
    return {id, output: selectOutput(text, {tail, grep: matcher, stripAnsi: raw ? undefined : stripAnsi}), end};
  },
  'proc.stop': ({id, project}, context) => context.supervisor.stop(processKey(context, project, id)),
  'proc.restart': ({id, project}, context) => context.supervisor.restart(processKey(context, project, id)),
  'proc.remove': ({id, project}, context) => {
    context.supervisor.remove(processKey(context, project, id));
    return {removed: true};
  },
};
