import type {FeedDocument, LinkBase, RenderedFeed, Representation} from '../types.js';
import {renderFeed} from './render-feed.js';

export interface RenderCacheOptions {
  /** Representations kept (name × representation), least recently used dropped first. Default 512. */
  maxEntries?: number;
}

export interface RenderCache {
  /** The rendered bytes, reused while the document's version, the base URL (and for the landing page the stale flag) are the same. */
  get(doc: FeedDocument, representation: Representation, links: LinkBase): RenderedFeed;
  /** Drops every representation of `/<name>` (a channel deleted or expired). */
  forget(name: string): void;
}

interface Entry {
  /** What the bytes were rendered from: version, base URL and what else the representation shows. */
  basis: string;
  rendered: RenderedFeed;
}

/**
 * The rendered bytes per name × representation: a request for a feed that has not changed costs a
 * map lookup, not a render (the figure: ≥10× a server that renders every request). The
 * same Buffer is returned on every hit; callers must not write into it.
 */
export function createRenderCache(options: RenderCacheOptions = {}): RenderCache {
  const maxEntries = Math.max(1, Math.floor(options.maxEntries ?? 512));
  // A Map iterates in insertion order: re-inserting on a hit keeps the least recently used first.
  const entries = new Map<string, Entry>();
  return {
    get(doc, representation, links) {
      const key = `${representation} ${doc.name}`;
      const basis = `${doc.version} ${links.baseUrl}${representation === 'html' && doc.stale ? ' stale' : ''}`;
      const cached = entries.get(key);
      entries.delete(key);
      if (cached && cached.basis === basis) {
        entries.set(key, cached);
        return cached.rendered;
      }
      const rendered = renderFeed(doc, representation, links);
      entries.set(key, {basis, rendered});
      while (entries.size > maxEntries) entries.delete(entries.keys().next().value!);
      return rendered;
    },
    forget(name) {
      for (const representation of ['rss', 'atom', 'html'] as const) entries.delete(`${representation} ${name}`);
    },
  };
}
