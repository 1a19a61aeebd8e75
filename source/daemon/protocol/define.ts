import {z} from 'zod';

/**
 * One daemon method: the zod schema its params must pass (checked by the daemon before the handler
 * runs) and the type of its result (a type only: `returns<T>()` carries it to client and server).
 */
export interface MethodSpec<Params extends z.ZodType = z.ZodType, Result = unknown> {
  params: Params;
  result: Result;
}

/** A result type for a method table entry; the value is never read. */
export function returns<T>(): T {
  return undefined as T;
}

/** A method without parameters still refuses unknown ones. */
export const noParams = z.strictObject({});

export const processId = z.string().min(1).max(64);
