import type {SentStatement} from '../types.js';

/** The request header that asks for the SQL sent in `extensions.sql`: `X-Gql-Debug: 1` or `sql`. */
export const DEBUG_HEADER = 'x-gql-debug';

/** Whether a debug header value asks for the SQL. */
export function wantsSql(value: string | string[] | null | undefined): boolean {
  const text = (Array.isArray(value) ? value[0] : value)?.trim().toLowerCase();
  return text === '1' || text === 'sql' || text === 'true';
}

/** `extensions.sql`: how many statements the request sent and each one with its bindings and time. */
export function sqlExtension(statements: readonly SentStatement[]): {count: number; statements: SentStatement[]} {
  return {count: statements.length, statements: [...statements]};
}
