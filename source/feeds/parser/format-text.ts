import {describeEnclosure} from '../enclosure-text.js';
import {MAX_ENCLOSURES} from './enclosures.js';
import type {ParsedFeed, ParsedItem} from '../types.js';
import {toTerminalText} from '../../text/terminal-safe.js';
import {articleKey} from './identity.js';

/**
 * A parsed feed for people: the feed, then one compact block per entry with the fields a reader
 * keys on. An entry without a guid shows the key it will be stored under, since that is what
 * decides whether a refresh duplicates it. Every value comes from the feed: the text is made safe
 * for a terminal as a whole.
 */
export function formatParsedFeed(feed: ParsedFeed): string {
  const lines = [feed.title || '(untitled feed)'];
  lines.push(`  link     ${feed.link ?? '—'}`);
  lines.push(`  format   ${feed.version ?? feed.format}${feed.ttlMinutes ? ` · ttl ${feed.ttlMinutes} min` : ''}`);
  if (feed.description) lines.push(`  about    ${clip(feed.description, 100)}`);
  lines.push(`  items    ${feed.items.length}`);
  feed.items.forEach((item, index) => {
    lines.push('', `${index + 1}. ${item.title || '(untitled)'}`);
    lines.push(...itemLines(item).map(([label, value]) => `   ${label.padEnd(11)}${value}`));
  });
  return `${toTerminalText(lines.join('\n'))}\n`;
}

function itemLines(item: ParsedItem): Array<[string, string]> {
  const rows: Array<[string, string]> = [
    ['link', item.link ?? '—'],
    ['id', item.guid ?? `— (stored as ${clip(articleKey(item), 80)})`],
    ['published', item.published ?? '—'],
  ];
  if (item.updated) rows.push(['updated', item.updated]);
  rows.push(['author', item.author ?? '—']);
  if (item.categories.length > 0) rows.push(['categories', item.categories.join(', ')]);
  for (const enclosure of item.enclosures ?? []) rows.push(['enclosure', describeEnclosure(enclosure)]);
  if (item.enclosuresOmitted) rows.push(['enclosure', `… ${item.enclosuresOmitted.toLocaleString('en')} more left out (at most ${MAX_ENCLOSURES} are kept)`]);
  return rows;
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
