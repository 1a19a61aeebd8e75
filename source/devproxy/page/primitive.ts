/**
 * How a diagnostic primitive is declared: its parameters and one-line summary sit next to its code,
 * and the reference (`workbench proxy primitives`) is generated from the same declarations. Module
 * top levels in page/ touch no DOM, so Node imports the catalogue to read the docs.
 */
export interface Primitive {
  /** Parameters as a reader writes them, e.g. `selector, properties?`; empty when none. */
  params: string;
  /** One line: what it answers. */
  summary: string;
  /** Arguments arrive from exec'd code, so every run checks them itself (they are typed unknown). */
  run: (...args: never[]) => unknown;
}

export type PrimitiveGroup = Record<string, Primitive>;

export function primitive<Args extends unknown[]>(params: string, summary: string, run: (...args: Args) => unknown): Primitive {
  return {params, summary, run: run as unknown as Primitive['run']};
}

/** What a primitive answers for bad arguments (no match, invalid selector) instead of throwing. */
export interface PrimitiveError {
  error: string;
}

export function failure(error: string): PrimitiveError {
  return {error};
}

export function isFailure(value: unknown): value is PrimitiveError {
  return typeof value === 'object' && value !== null && 'error' in value && Object.keys(value).length === 1;
}
