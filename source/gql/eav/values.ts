import {WorkbenchError} from '../../core/errors.js';
import type {ColumnKind} from '../types.js';

/** Text values: the value column is a string (or uuid) column; these take the pattern operators too. */
export function isTextKind(kind: ColumnKind): boolean {
  return kind === 'string' || kind === 'uuid';
}

/** The GraphQL scalar name an attribute value has, for messages (schema/scalars.ts gives the type itself). */
function scalarName(kind: ColumnKind): string {
  return kind === 'int' ? 'Int' : kind === 'float' ? 'Float' : kind === 'bigint' ? 'BigInt' : kind === 'decimal' ? 'Decimal' : 'String';
}

/**
 * An attribute value (written, or compared in a filter) checked against the value column's
 * kind, as the column's own scalar would check it: text for String, a whole number for Int, a
 * number for Float, and for BigInt and Decimal an exact number as text (or a safe number). A
 * value of another type is the caller's error, never coerced.
 */
export function checkedValue(kind: ColumnKind, value: unknown, what: string): unknown {
  const refuse = (): never => {
    throw new WorkbenchError('invalid_argument', `${what} takes a ${scalarName(kind)}, not ${JSON.stringify(value) ?? String(value)}`);
  };
  switch (kind) {
    case 'int':
      return typeof value === 'number' && Number.isSafeInteger(value) ? value : refuse();
    case 'float':
      return typeof value === 'number' && Number.isFinite(value) ? value : refuse();
    case 'bigint':
      if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
      return typeof value === 'string' && /^-?\d+$/.test(value) ? value : refuse();
    case 'decimal':
      if (typeof value === 'number' && Number.isFinite(value)) return String(value);
      return typeof value === 'string' && /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(value) ? value : refuse();
    default:
      return typeof value === 'string' ? value : refuse();
  }
}
