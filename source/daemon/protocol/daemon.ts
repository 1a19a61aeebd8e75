import {z} from 'zod';
import {noParams, processId, project, returns, type MethodSpec} from './define.js';
import {topicSchema, type Topic} from './events.js';

/** A process a crashed daemon left running: the next daemon knows it by pid only. */
export interface SurvivingProcess {
  id: string;
  pid: number;
  command: string;
}

export interface PingResult {
  pid: number;
  startedAt: number;
  version: 1;
  /** Processes started by an earlier daemon that died without stopping them; still running. */
  survivors: SurvivingProcess[];
}

const subscription = z.strictObject({
  topic: topicSchema,
  /** `output` only: one process's output; every process's when absent. */
  id: processId.optional(),
  /** Whose process `id` is (the caller's project). */
  project,
});

/** The daemon itself: liveness, shutdown and event subscriptions. */
export const daemonMethods = {
  ping: {params: noParams, result: returns<PingResult>()},
  'daemon.stop': {params: noParams, result: returns<{stopping: true}>()},
  'events.subscribe': {params: subscription, result: returns<{topic: Topic}>()},
  'events.unsubscribe': {params: subscription, result: returns<{topic: Topic}>()},
} satisfies Record<string, MethodSpec>;
