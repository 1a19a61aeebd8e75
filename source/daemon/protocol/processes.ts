import {z} from 'zod';
import type {ProcessInfo} from '../../processes/types.js';
import {processId, project, returns, type MethodSpec} from './define.js';

/** `proc.*`: the supervised processes (start, inspect, stop) of the daemon, each in the caller's `project`. */
export const processMethods = {
  'proc.start': {
    params: z.strictObject({
      cmd: z.string().min(1).max(8192),
      id: processId.optional(),
      scriptName: z.string().max(128).optional(),
      cwd: z.string().max(4096).optional(),
      env: z.record(z.string(), z.string()).optional(),
      cols: z.number().int().min(20).max(1000).optional(),
      rows: z.number().int().min(5).max(1000).optional(),
      project,
    }),
    result: returns<ProcessInfo>(),
  },
  /** The project's processes and the home's services; `all`: every project's. */
  'proc.list': {params: z.strictObject({project, all: z.boolean().optional()}), result: returns<ProcessInfo[]>()},
  'proc.get': {params: z.strictObject({id: processId, project}), result: returns<ProcessInfo>()},
  'proc.output': {
    params: z.strictObject({
      id: processId,
      tail: z.number().int().min(0).max(1_000_000).optional(),
      /** A user pattern: runs on RE2 (linear time), case-insensitive. */
      grep: z.string().max(1000).optional(),
      /** Keep ANSI escapes (the TUI renders them). */
      raw: z.boolean().optional(),
      project,
    }),
    /** `end`: bytes the process printed up to this answer; output events with `end` at or below it are in it. */
    result: returns<{id: string; output: string; end: number}>(),
  },
  'proc.stop': {params: z.strictObject({id: processId, project}), result: returns<ProcessInfo>()},
  'proc.restart': {params: z.strictObject({id: processId, project}), result: returns<ProcessInfo>()},
  'proc.remove': {params: z.strictObject({id: processId, project}), result: returns<{removed: true}>()},
} satisfies Record<string, MethodSpec>;
