import {WorkbenchError} from './errors.js';

/** A whole number from a flag, or a clear error naming the flag; undefined stays undefined. */
export function parseInteger(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^-?\d+$/.test(value.trim())) throw new WorkbenchError('invalid_argument', `${flag} must be a whole number, got "${value}"`);
  return Number.parseInt(value, 10);
}

export function parseLimit(value: string | undefined, flag: string): number | undefined {
  const number = parseInteger(value, flag);
  if (number !== undefined && number < 1) throw new WorkbenchError('invalid_argument', `${flag} must be 1 or more, got ${number}`);
  return number;
}

/** A count that may be zero (`--tail 0`). */
export function parseCount(value: string | undefined, flag: string): number | undefined {
  const number = parseInteger(value, flag);
  if (number !== undefined && number < 0) throw new WorkbenchError('invalid_argument', `${flag} must be 0 or more, got ${number}`);
  return number;
}

/** A decimal number from a flag (`0.01`, `.5`, `1`), or a clear error naming the flag; undefined stays undefined. */
export function parseDecimal(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^-?(\d+(\.\d*)?|\.\d+)$/.test(value.trim())) throw new WorkbenchError('invalid_argument', `${flag} must be a number such as 0.01, got "${value}"`);
  return Number(value);
}
