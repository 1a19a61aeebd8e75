import type {UserContext} from '../types.js';

/** Who asks when authentication is off (`GqlService:DisableAuth`): no claims, no roles. */
export const ANONYMOUS: UserContext = Object.freeze({claims: Object.freeze({}) as Record<string, unknown>, roles: Object.freeze([]) as unknown as string[], anonymous: true});

/**
 * A verified token's claims as the request's user: roles from `roles` and `role` (a string or a
 * list of strings; identity providers use either), and the audit key populate writes — `sub`,
 * else `name`, else `email` (the first non-empty string).
 */
export function userFromClaims(claims: Record<string, unknown>): UserContext {
  const roles = new Set<string>();
  for (const key of ['roles', 'role']) {
    const value = claims[key];
    const list = Array.isArray(value) ? value : [value];
    for (const role of list) if (typeof role === 'string' && role.trim() !== '') roles.add(role.trim());
  }
  const auditKey = ['sub', 'name', 'email'].map((key) => claims[key]).find((value): value is string => typeof value === 'string' && value.trim() !== '');
  return {claims: {...claims}, roles: [...roles], ...(auditKey === undefined ? {} : {auditKey}), anonymous: false};
}
