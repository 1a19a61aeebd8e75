import {createHash} from 'node:crypto';
import {fingerprintMessage} from './fingerprint.js';
import type {ErrorShape} from './shape.js';

/** The id of the incident a message belongs to: near-duplicates (same fingerprint) share it. */
export function incidentId(source: string, category: string, message: string, location: string): string {
  return createHash('sha256')
    .update(`${source}\u0000${category}\u0000${fingerprintMessage(message)}\u0000${location}`)
    .digest('hex')
    .slice(0, 8);
}

const shapeIds = new WeakMap<ErrorShape, string>();

/** incidentId of a record's shape; shapes are cached per record, so this hashes each record once. */
export function shapeIncidentId(shape: ErrorShape): string {
  let id = shapeIds.get(shape);
  if (id === undefined) {
    id = incidentId(shape.scope ? `${shape.scope}#${shape.source}` : shape.source, shape.category, shape.message, shape.location);
    shapeIds.set(shape, id);
  }
  return id;
}
