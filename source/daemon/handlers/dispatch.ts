import {WorkbenchError} from '../../core/errors.js';
import {isMethod, protocol, type MethodName} from '../protocol/index.js';
import type {Handler, MethodContext} from './context.js';
import {daemonHandlers} from './daemon.js';
import {incidentHandlers} from './incidents.js';
import {processHandlers} from './processes.js';
import {proxyHandlers} from './proxies.js';

const handlers: {[M in MethodName]: Handler<M>} = {...daemonHandlers, ...processHandlers, ...proxyHandlers, ...incidentHandlers};

/**
 * Validates a request's params against the method's schema, then runs its handler. Not async: a
 * bad request throws at once, so its error goes out in the order the requests came.
 */
export function dispatch(method: string, params: unknown, context: MethodContext): unknown {
  if (!isMethod(method)) throw new WorkbenchError('not_found', `unknown method "${method}"`);
  const parsed = protocol[method].params.safeParse(params ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
    throw new WorkbenchError('invalid_argument', `${method}: ${where}${issue?.message ?? 'invalid parameters'}`);
  }
  return (handlers[method] as Handler<MethodName>)(parsed.data as never, context);
}
