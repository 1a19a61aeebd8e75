import type {Incident} from '../../../incidents/incidents.js';

/** How the Incidents pane orders its list; `o` cycles through them. `inbox` is get-incidents' own order. */
export type IncidentSort = 'inbox' | 'newest' | 'count' | 'source';

export const SORTS: IncidentSort[] = ['inbox', 'newest', 'count', 'source'];

export const SORT_LABELS: Record<IncidentSort, string> = {
  inbox: 'errors first, then newest',
  newest: 'newest',
  count: 'count',
  source: 'source',
};

export function nextSort(sort: IncidentSort): IncidentSort {
  return SORTS[(SORTS.indexOf(sort) + 1) % SORTS.length];
}

const newest = (a: Incident, b: Incident) => Date.parse(b.last_seen) - Date.parse(a.last_seen);

/** The incidents in `sort` order; ties keep the inbox's order (the sort is stable). */
export function sortIncidents(incidents: Incident[], sort: IncidentSort): Incident[] {
  if (sort === 'inbox') return incidents;
  const sorted = [...incidents];
  if (sort === 'newest') sorted.sort(newest);
  else if (sort === 'count') sorted.sort((a, b) => b.count - a.count || newest(a, b));
  else sorted.sort((a, b) => (a.source < b.source ? -1 : a.source > b.source ? 1 : newest(a, b)));
  return sorted;
}
