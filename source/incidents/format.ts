import {toTerminalLine, toTerminalText} from '../text/terminal-safe.js';
import {formatAge} from './age.js';
import {truncateText} from './truncate.js';
import type {UnifiedError} from './types.js';

/**
 * Compact output of get_errors (spec 1), exactly:
 *
 *     === Errors (<n>) ===
 *
 *     [<source>] <category> (<count>x, <age> ago)
 *     <message>
 *     → <location>          (when there is one)
 *     page: <url>           (browser-originated entries)
 *
 *     === Warnings (<n>) ===
 *     ...
 *
 * Both headings are always printed; entries are separated by a blank line. The message line is
 * the message's first non-empty line, at most 200 characters; a message cut short (longer than
 * 200, or more lines following) ends in `…`. Messages quote what programs and servers printed,
 * so every line is made safe for a terminal (no escape sequences, no controls).
 */
export function formatErrorsCompact(errors: UnifiedError[], now = Date.now()): string {
  const lines: string[] = [];
  section(
    lines,
    'Errors',
    errors.filter((error) => error.severity === 'error'),
    now,
  );
  lines.push('');
  section(
    lines,
    'Warnings',
    errors.filter((error) => error.severity !== 'error'),
    now,
  );
  return lines.join('\n');
}

function section(lines: string[], title: string, errors: UnifiedError[], now: number): void {
  lines.push(`=== ${title} (${errors.length}) ===`);
  for (const error of errors) {
    lines.push('', toTerminalLine(`[${error.source}] ${error.category} ${occurrences(error.count, error.last_seen, now)}`));
    entryDetailLines(lines, error);
  }
}

/** `(<count>x, <age> ago)` */
export function occurrences(count: number, lastSeen: string, now: number): string {
  return `(${count}x, ${formatAge(now - Date.parse(lastSeen))} ago)`;
}

/** The lines under an entry's heading: message, `→ <location>`, `page: <url>`. */
export function entryDetailLines(lines: string[], entry: Pick<UnifiedError, 'message' | 'location' | 'page'>): void {
  const message = compactMessage(entry.message);
  if (message !== '') lines.push(message);
  if (entry.location !== '') lines.push(toTerminalLine(`→ ${entry.location}`));
  if (entry.page !== '') lines.push(toTerminalLine(`page: ${entry.page}`));
}

/** First non-empty line of a message, at most 200 characters, `…` when anything was left out. */
export function compactMessage(message: string): string {
  const text = toTerminalText(message).trim();
  const newline = text.indexOf('\n');
  if (newline < 0) return truncateText(text);
  return truncateText(`${text.slice(0, newline).trimEnd()}…`);
}
