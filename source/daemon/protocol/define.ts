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

/** A process id inside the caller's project (`web`), or one that names its project (`/path/to/project#web`). */
export const processId = z.string().min(1).max(4200);

/**
 * The caller's project root (realpath; see project/project-root.ts): processes belong to their
 * project, so every method that names one carries it. `DaemonClient` adds it; absent, a
 * nameless project of its own.
 */
export const project = z.string().max(4096).optional();
