import {z} from 'zod';
import {errorQuery} from '../../incidents/error-query.js';
import type {Incident} from '../../incidents/incidents.js';
import type {ProcessAlert, UnifiedError} from '../../incidents/types.js';
import {noParams, processId, returns, type MethodSpec} from './define.js';

/** The error inbox: `get_errors`, `get_incidents` and the raw alert ring. */
export const incidentMethods = {
  'errors.query': {params: z.strictObject(errorQuery.shape), result: returns<UnifiedError[]>()},
  'incidents.query': {params: noParams, result: returns<Incident[]>()},
  'alerts.list': {params: z.strictObject({id: processId.optional()}), result: returns<ProcessAlert[]>()},
} satisfies Record<string, MethodSpec>;
