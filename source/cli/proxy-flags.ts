import {WorkbenchError} from '../core/errors.js';
import {parseInteger} from '../core/parse-number.js';
import {statusCodeSchema, TRAFFIC_TYPES, type trafficTypeSchema} from '../devproxy/params.js';
import type {z} from 'zod';

/** Comma-separated flag values (`--types http,error`, `--status 404,500`), each checked, the flag named in the error. */
function splitList(value: string | undefined, flag: string): string[] | undefined {
  if (value === undefined) return undefined;
  const items = value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
  if (items.length === 0) throw new WorkbenchError('invalid_argument', `${flag} needs at least one value, e.g. ${flag} ${flag === '--status' ? '404,500' : 'http,error'}`);
  return items;
}

export function parseTypesFlag(value: string | undefined, flag = '--types'): Array<z.infer<typeof trafficTypeSchema>> | undefined {
  const items = splitList(value, flag);
  if (!items) return undefined;
  for (const item of items) {
    if (!(TRAFFIC_TYPES as readonly string[]).includes(item)) throw new WorkbenchError('invalid_argument', `${flag}: unknown type "${item}" (use ${TRAFFIC_TYPES.join(', ')})`);
  }
  return [...new Set(items)] as Array<z.infer<typeof trafficTypeSchema>>;
}

export function parseStatusFlag(value: string | undefined, flag = '--status'): number[] | undefined {
  const items = splitList(value, flag);
  if (!items) return undefined;
  return items.map((item) => {
    const status = parseInteger(item, flag)!;
    if (!statusCodeSchema.safeParse(status).success) throw new WorkbenchError('invalid_argument', `${flag}: ${status} is no HTTP status (use 100–599, or 0 for a failed request)`);
    return status;
  });
}
