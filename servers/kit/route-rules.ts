import type {FastifyInstance, RouteOptions} from 'fastify';
import {WorkbenchError} from '../../source/core/errors.js';

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The body schema a route declares, if it takes a body at all. */
export function takesBody(route: Pick<RouteOptions, 'schema'> | undefined): boolean {
  return (route?.schema as {body?: unknown} | undefined)?.body !== undefined;
}

/** Nothing, or an empty JSON object (what many clients send by habit), counts as no body. */
function isEmptyBody(body: unknown): boolean {
  return body === undefined || body === null || (typeof body === 'object' && !Array.isArray(body) && Object.keys(body).length === 0);
}

/**
 * Rules every route of the app keeps, checked when it is registered so a new route cannot forget
 * them: a querystring schema that refuses unknown parameters (`noQuery` of schemas.ts where it takes
 * none), and a route without a body schema refuses a body instead of ignoring it.
 */
export function installRouteRules(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const querystring = (route.schema as {querystring?: {additionalProperties?: unknown}} | undefined)?.querystring;
    if (querystring?.additionalProperties !== false) {
      throw new Error(`route ${String(route.method)} ${route.url} must declare a querystring schema with additionalProperties: false`);
    }
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (takesBody(route) || !methods.some((method) => BODY_METHODS.has(method))) return;
    const refuse = async (request: {body: unknown; method: string; routeOptions: {url?: string}}) => {
      if (!isEmptyBody(request.body)) throw new WorkbenchError('invalid_body', `${request.method} ${request.routeOptions.url ?? ''} takes no body`);
    };
    const existing = route.preValidation;
    route.preValidation = existing === undefined ? [refuse] : [...(Array.isArray(existing) ? existing : [existing]), refuse];
  });
}
