import {z} from 'zod';
import {errorQuery} from '../../incidents/error-query.js';
import type {Incident} from '../../incidents/incidents.js';
import type {Seen} from '../../incidents/seen.js';
import type {ProcessAlert, UnifiedError} from '../../incidents/types.js';
import {noParams, processId, project, returns, type MethodSpec} from './define.js';

/** The error inbox: `get_errors`, `get_incidents` and the raw alert ring; process alerts of the caller's `project` (and the home's services) only. */
export const incidentMethods = {
  'errors.query': {params: z.strictObject({...errorQuery.shape, project}), result: returns<UnifiedError[]>()},
  'incidents.query': {params: z.strictObject({project}), result: returns<Incident[]>()},
  /** The inbox's read marks (get_incidents `unread`, `mark_read`), shared by every client of the daemon. */
  'incidents.marks': {params: noParams, result: returns<Seen[]>()},
  'incidents.mark_read': {
    params: z.strictObject({incidents: z.array(z.strictObject({id: z.string().min(1).max(128), last_seen: z.string().max(64)})).max(10_000)}),
    result: returns<{marked: number}>(),
  },
  'alerts.list': {params: z.strictObject({id: processId.optional(), project}), result: returns<ProcessAlert[]>()},
} satisfies Record<string, MethodSpec>;
