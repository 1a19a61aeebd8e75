import type {Enclosure} from './types.js';

/** One line for an enclosure, as `feeds parse`, `articles show` and the Feeds pane show it: "URL (audio/mpeg, 11.7 MB, 1:02:03)". */
export function describeEnclosure(enclosure: Enclosure): string {
  const facts = [
    enclosure.type,
    enclosure.length === undefined ? undefined : byteSize(enclosure.length),
    enclosure.durationSeconds === undefined ? undefined : playingTime(enclosure.durationSeconds),
  ].filter((fact): fact is string => fact !== undefined);
  return facts.length ? `${enclosure.url} (${facts.join(', ')})` : enclosure.url;
}

/** 1,000-based as players and podcast apps show file sizes. */
export function byteSize(bytes: number): string {
  const units = ['B', 'kB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return unit === 0 ? `${bytes} B` : `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

/** h:mm:ss, or m:ss under an hour. */
export function playingTime(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = String(seconds % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/**
 * An article's enclosures. A reader server from before enclosures were in its REST answer sends
 * none: the field is then absent, which means none.
 */
export function enclosuresOf(article: object): Enclosure[] {
  const {enclosures} = article as {enclosures?: unknown};
  return Array.isArray(enclosures) ? (enclosures as Enclosure[]) : [];
}
