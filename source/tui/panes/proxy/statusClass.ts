import type {TrafficEntry} from '../../../devproxy/types.js';

/** What a status says at a glance: the class the list colours and the `f` key filters by. */
export type StatusClass = '2xx' | '3xx' | '4xx' | '5xx' | 'failed' | '1xx';

/** Status 0: the proxy never got an answer from the target (refused, reset, timed out). */
export function statusClass(status: number): StatusClass {
  if (status <= 0) return 'failed';
  if (status < 200) return '1xx';
  if (status < 300) return '2xx';
  if (status < 400) return '3xx';
  if (status < 500) return '4xx';
  return '5xx';
}

export const STATUS_COLOURS: Record<StatusClass, string> = {
  '1xx': 'gray',
  '2xx': 'green',
  '3xx': 'cyan',
  '4xx': 'yellow',
  '5xx': 'red',
  failed: 'magenta',
};

/** The `f` key's cycle: everything, then each class, then every failure at once. */
export const CLASS_FILTERS = ['all', '2xx', '3xx', '4xx', '5xx', 'failed', 'errors'] as const;
export type ClassFilter = (typeof CLASS_FILTERS)[number];

/** The `t` key's cycle over the traffic log's entry types. */
export const TYPE_FILTERS = ['all', 'http', 'error', 'custom', 'diagnostic', 'page'] as const;
export type TypeFilter = (typeof TYPE_FILTERS)[number];

export function nextInCycle<T>(cycle: readonly T[], current: T): T {
  return cycle[(cycle.indexOf(current) + 1) % cycle.length]!;
}

/**
 * Whether an entry passes the class filter: a class asks for HTTP entries of that class; `errors`
 * is everything that went wrong (4xx, 5xx, transport failures, page errors, diagnostics).
 */
export function matchesClass(entry: TrafficEntry, filter: ClassFilter): boolean {
  if (filter === 'all') return true;
  if (entry.type !== 'http') return filter === 'errors' && (entry.type === 'error' || entry.type === 'diagnostic' || (entry.type === 'custom' && entry.level === 'error'));
  const shown = statusClass(entry.status);
  if (filter === 'errors') return shown === '4xx' || shown === '5xx' || shown === 'failed';
  return shown === filter;
}

export function matchesType(entry: TrafficEntry, filter: TypeFilter): boolean {
  return filter === 'all' || entry.type === filter;
}
