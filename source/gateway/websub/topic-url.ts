import {hubUrl, selfUrl} from '../render/links.js';
import {FEED_NAME_PATTERN, RESERVED_NAMES, type Representation} from '../types.js';

export {HUB_PATH} from '../render/links.js';

/** The representations a topic can name: a feed URL serves RSS by default and Atom with `?format=atom`. */
export type TopicRepresentation = Exclude<Representation, 'html'>;

export interface Topic {
  /** The feed's path segment: a proxied feed's name or a channel's id. */
  name: string;
  representation: TopicRepresentation;
  /** The topic URL as the gateway writes it (its self link). */
  url: string;
}

function trimSlash(baseUrl: string): string {
  return baseUrl.replace(/\/+$/, '');
}

/** The hub's URL: the renderer's `rel="hub"` link, so what subscribers are told and what the hub answers agree. */
export function hubUrlOf(baseUrl: string): string {
  return hubUrl({baseUrl: trimSlash(baseUrl)});
}

/** The self URL of `/<name>` in one representation, as the renderer writes it: `<baseUrl>/<name>` or `<baseUrl>/<name>?format=atom`. */
export function topicUrl(baseUrl: string, name: string, representation: TopicRepresentation): string {
  return selfUrl({baseUrl: trimSlash(baseUrl)}, name, representation);
}

/**
 * Reads a hub.topic: one of this gateway's feed URLs (same origin and base path, one name
 * segment, no query but `format=atom`, no fragment), or null. Compared as parsed URLs, so a
 * default port or a host's case do not matter; the URL kept is the gateway's own spelling.
 */
export function parseTopic(text: string, baseUrl: string): Topic | null {
  let url: URL;
  let base: URL;
  try {
    url = new URL(text);
    base = new URL(trimSlash(baseUrl));
  } catch {
    return null;
  }
  if (url.origin !== base.origin || url.hash !== '' || url.username !== '' || url.password !== '') return null;
  const prefix = `${base.pathname.replace(/\/+$/, '')}/`;
  if (!url.pathname.startsWith(prefix)) return null;
  let name: string;
  try {
    name = decodeURIComponent(url.pathname.slice(prefix.length));
  } catch {
    return null;
  }
  if (!FEED_NAME_PATTERN.test(name) || RESERVED_NAMES.has(name.toLowerCase())) return null;
  const query = [...url.searchParams];
  let representation: TopicRepresentation;
  if (query.length === 0 && !url.search.slice(1)) representation = 'rss';
  else if (query.length === 1 && query[0]![0] === 'format' && query[0]![1] === 'atom') representation = 'atom';
  else return null;
  return {name, representation, url: topicUrl(baseUrl, name, representation)};
}
