import {decodeEntities} from '../../text/entities.js';
import type {DiscoveredFeed, FeedFormat} from '../types.js';

// Link types that announce a feed; application/json counts (Miniflux does too) except WordPress's REST API.
const FEED_TYPES: Record<string, FeedFormat> = {
  'application/rss+xml': 'rss',
  'application/atom+xml': 'atom',
  'application/rdf+xml': 'rdf',
  'application/feed+json': 'json',
  'application/json': 'json',
  'text/xml': 'rss',
};

/**
 * Feeds a page announces with <link rel="alternate" type="…feed type…" href>, in page order,
 * without duplicates, hrefs resolved against <base href> (itself resolved against the page URL).
 * A light scan rather than an HTML parser: attributes in any order, quoted either way or bare,
 * names in any case; comments, scripts and styles are skipped.
 */
export function feedLinks(html: string, pageUrl: string): DiscoveredFeed[] {
  const markup = html.replace(/<!--[\s\S]*?-->/g, '').replace(/<(script|style|template)\b[\s\S]*?<\/\1\s*>/gi, '');
  const baseUrl = baseHref(markup, pageUrl);
  const found: DiscoveredFeed[] = [];
  const seen = new Set<string>();
  for (const tag of markup.matchAll(/<link\b([^>]*)>/gi)) {
    const attributes = parseAttributes(tag[1]!);
    const rel = (attributes.get('rel') ?? '').toLowerCase().split(/\s+/);
    if (!rel.includes('alternate')) continue;
    const type = (attributes.get('type') ?? '').toLowerCase().split(';')[0]!.trim();
    const format = FEED_TYPES[type];
    const href = attributes.get('href')?.trim();
    if (!format || !href) continue;
    if (type === 'application/json' && href.includes('wp-json')) continue;
    const url = resolveHttp(href, baseUrl);
    if (url === null || seen.has(url)) continue;
    seen.add(url);
    const title = attributes.get('title')?.trim();
    found.push({url, title: title ? title : null, format});
  }
  return found;
}

function baseHref(markup: string, pageUrl: string): string {
  const tag = /<base\b([^>]*)>/i.exec(markup);
  const href = tag ? parseAttributes(tag[1]!).get('href')?.trim() : undefined;
  return (href && resolveHttp(href, pageUrl)) || pageUrl;
}

function resolveHttp(href: string, base: string): string | null {
  try {
    const url = new URL(href, base);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    url.hash = '';
    return url.href;
  } catch {
    return null;
  }
}

/** name → decoded value; first occurrence wins, as in HTML. */
export function parseAttributes(source: string): Map<string, string> {
  const attributes = new Map<string, string>();
  // An unquoted value runs to whitespace or '>', '=' and all (as browsers read href=/f?a=1).
  for (const match of source.matchAll(/([^\s"'<>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g)) {
    const name = match[1]!.toLowerCase();
    if (attributes.has(name)) continue;
    attributes.set(name, decodeEntities(match[2] ?? match[3] ?? match[4] ?? ''));
  }
  return attributes;
}
