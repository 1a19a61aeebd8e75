/**
 * The `gateway` block of `.workbench.kdl` (issue 9): the feeds the gateway proxies, one node each,
 *
 *     gateway {
 *       feed "news" origin="https://example.com/feed.xml" poll-interval="10m" title="News"
 *     }
 *
 * Read here as the file's syntax allows (names, URLs, durations, each on its line); the gateway's
 * own rules (its name pattern, reserved paths, the shortest interval) are checked by
 * source/gateway/config, which names the line kept in each entry.
 */
import type {Node} from '@bgotink/kdl';
import {parseDuration} from '../core/duration.js';
import {isHttpUrl, show} from './config-values.js';

/** One `feed` node of the block. */
export interface GatewayFeedEntry {
  name: string;
  origin: string;
  /** `poll-interval`, when given. */
  pollIntervalMs?: number;
  title?: string;
  /** The line of the `feed` node, for errors found later. */
  line: number;
}

export interface GatewayBlock {
  /** The line of the (first) `gateway` block. */
  line: number;
  feeds: GatewayFeedEntry[];
}

const PROPERTIES = ['origin', 'poll-interval', 'title'];

/** Reads one `gateway { ... }` block into `block` (several blocks add up; names stay unique across them). */
export function readGatewayBlock(node: Node, block: GatewayBlock, lineOf: (node: Node) => number, fail: (line: number, message: string) => never): void {
  const blockLine = lineOf(node);
  if (node.hasArguments() || node.hasProperties()) fail(blockLine, 'gateway takes no values, only a { } block of feed entries');
  const seen = new Map(block.feeds.map((feed) => [feed.name, feed.line]));
  for (const entry of node.children?.nodes ?? []) {
    const line = lineOf(entry);
    const kind = entry.getName();
    if (kind !== 'feed') fail(line, `gateway: unknown entry "${kind}" (expected feed "<name>" origin="<url>")`);
    if ((entry.children?.nodes.length ?? 0) > 0) fail(line, 'gateway.feed: takes its settings as properties (origin="..."), not a block');

    const values = entry.getArguments();
    if (values.length !== 1 || typeof values[0] !== 'string') {
      fail(line, `gateway.feed: expected one name in quotes, e.g. feed "news" origin="https://…", got ${values.length === 1 ? show(values[0]) : `${values.length} values`}`);
    }
    const name = (values[0] as string).trim();
    if (!/^\S+$/.test(name)) fail(line, `gateway.feed: name ${show(values[0])} must be one word without spaces`);
    const first = seen.get(name);
    if (first !== undefined) fail(line, `gateway: duplicate feed "${name}" (first defined on line ${first})`);
    seen.set(name, line);

    const where = `gateway.feed "${name}"`;
    const settings = new Map<string, string>();
    for (const property of entry.getPropertyEntries()) {
      const key = property.getName() ?? '';
      if (!PROPERTIES.includes(key)) fail(line, `${where}: unknown property ${key}=... (expected origin, poll-interval, title)`);
      if (settings.has(key)) fail(line, `${where}: ${key} is set twice`);
      const value = property.getValue();
      if (typeof value !== 'string') fail(line, `${where}: ${key} expects a string in quotes, got ${show(value)}`);
      const text = (value as string).trim();
      if (text === '') fail(line, `${where}: ${key} must not be empty`);
      settings.set(key, text);
    }

    const origin = settings.get('origin');
    if (origin === undefined) fail(line, `${where}: missing origin="<http(s) URL of the feed>"`);
    if (!isHttpUrl(origin!)) fail(line, `${where}: origin must be an http:// or https:// URL, got ${show(origin)}`);
    const feed: GatewayFeedEntry = {name, origin: origin!, line};
    const interval = settings.get('poll-interval');
    if (interval !== undefined) {
      const ms = parseDuration(interval);
      if (ms === undefined || ms <= 0) fail(line, `${where}: poll-interval must be a duration like 30s, 10m, 2h or 1d, got ${show(interval)}`);
      feed.pollIntervalMs = Math.round(ms!);
    }
    const title = settings.get('title');
    if (title !== undefined) feed.title = title;
    block.feeds.push(feed);
  }
}
