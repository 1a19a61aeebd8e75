import {selectOutput} from '../../processes/output-ring.js';
import {stripAnsi} from '../../text/ansi.js';
import {compileUserPattern} from '../../processes/user-pattern.js';
import type {processMethods} from '../protocol/processes.js';
import type {Handlers} from './context.js';

export const processHandlers: Handlers<keyof typeof processMethods> = {
  'proc.start': (params, {supervisor}) => supervisor.start(params),
  'proc.list': (_params, {supervisor}) => supervisor.list(),
  'proc.get': ({id}, {supervisor}) => supervisor.get(id),
  'proc.output': ({id, tail, grep, raw}, {supervisor}) => {
    // Compiled before the ring is read: a bad pattern is an error even for an unknown process.
    const matcher = grep === undefined ? undefined : compileUserPattern(grep);
    const {text, end} = supervisor.outputWithEnd(id);
    return {id, output: selectOutput(text, {tail, grep: matcher, stripAnsi: raw ? undefined : stripAnsi}), end};
  },
  'proc.stop': ({id}, {supervisor}) => supervisor.stop(id),
  'proc.restart': ({id}, {supervisor}) => supervisor.restart(id),
  'proc.remove': ({id}, {supervisor}) => {
    supervisor.remove(id);
    return {removed: true};
  },
};
