import {isQualified, makeKey, parseKey} from '../../processes/project-key.js';
import type {ProcessInfo} from '../../processes/types.js';
import type {MethodContext} from './context.js';

/**
 * How a request names a process: the caller's project (absent: a nameless one) and an id inside
 * it, or an id that names its project itself (`/path#web`). The handlers turn both into the
 * supervisor's full key, and the caller only ever sees its own project's processes and the
 * home's shared ones.
 */
export function processKey(context: MethodContext, project: string | undefined, id: string): string {
  return context.supervisor.locate(project ?? '', id, context.shared);
}

/** A key for a process that may not exist yet (an output subscription made before `proc.start`). */
export function futureKey(context: MethodContext, project: string | undefined, id: string): string {
  try {
    return processKey(context, project, id);
  } catch {
    return isQualified(id) ? id : makeKey(project ?? '', id);
  }
}

/** Whether a process is in the caller's view: its own project's or a shared one's. */
export function inView(context: MethodContext, project: string | undefined, processProject: string): boolean {
  return processProject === (project ?? '') || context.shared.includes(processProject);
}

/** `process_id` of an error query: a qualified one picks its project. */
export function errorScope(project: string | undefined, processId: string | undefined): {project: string; processId?: string} {
  if (processId !== undefined && isQualified(processId)) {
    const key = parseKey(processId);
    return {project: key.project, processId: key.id};
  }
  return {project: project ?? '', processId};
}

export function listInView(context: MethodContext, project: string | undefined): ProcessInfo[] {
  return context.supervisor.list().filter((info) => inView(context, project, info.project));
}
