import type {ErrorShape} from './shape.js';

/**
 * The fingerprint get_incidents groups near-duplicates by: the message with the values that vary
 * between occurrences of one trouble masked, after Sentry's message grouping
 * (`normalize_message_for_grouping`, its parameterization regexes and `<name>` placeholders).
 * `invoice 18: total is "012.50"` and `invoice 42: total is "013.75"` share
 * `invoice <int>: total is <quoted_str>`; `connect ECONNREFUSED 127.0.0.1:51234` becomes
 * `connect ECONNREFUSED <ip>:<int>`.
 *
 * Masked, in this order (an earlier mask keeps a later one from biting into its value): quoted
 * values, uuids, IPv4 addresses, hex (`0x…`, and runs of 8+ hex digits holding a digit: hashes,
 * ids), then standalone numbers (ints, floats, ports, the line and column of `file.ts:12:5`).
 * Digits after a letter (`TS2322`, `v8`, `utf8`) are part of the word and kept.
 */

const MASKS: Array<[RegExp, string]> = [
  // "…" always; '…' only as quotes (not the apostrophe of `can't`); `…` as JS and Markdown quote.
  [/"[^"\n]*"/g, '<quoted_str>'],
  [/(?<![\w'])'[^'\n]*'(?![\w'])/g, '<quoted_str>'],
  [/`[^`\n]*`/g, '<quoted_str>'],
  [/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '<uuid>'],
  [/\b(?:\d{1,3}\.){3}\d{1,3}\b/g, '<ip>'],
  [/\b0x[0-9a-f]+\b/gi, '<hex>'],
  [/\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{8,}\b/gi, '<hex>'],
  // A unit may follow (`1.5s`, `312ms`); a digit inside a word (`v8`, `utf8`) may not precede.
  [/(?<![\w.])[-+]?\d+\.\d+(?![\d.])/g, '<float>'],
  [/(?<![\w.])\d+(?!\d)/g, '<int>'],
];

export function fingerprintMessage(message: string): string {
  let text = message;
  for (const [pattern, placeholder] of MASKS) text = text.replace(pattern, placeholder);
  return text;
}

const shapeKeys = new WeakMap<ErrorShape, string>();

/** groupKey of a record's shape, computed once per shape (shapes are cached per stored record, so a query masks only new records). */
export function shapeGroupKey(shape: ErrorShape): string {
  let key = shapeKeys.get(shape);
  if (key === undefined) {
    key = groupKey(shape.source, shape.category, shape.message, shape.location);
    shapeKeys.set(shape, key);
  }
  return key;
}

/** Key of a group: the parts that must be equal (source, category, location) and the masked message. */
export function groupKey(source: string, category: string, message: string, location: string): string {
  return `${source}\u0000${category}\u0000${fingerprintMessage(message)}\u0000${location}`;
}
