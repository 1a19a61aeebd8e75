// The channel document cache: a read that raced a post never puts the older document back, and
// the cache stays within its byte budget, least recently used out first.
import {describe, expect, it} from 'vitest';
import {createDocumentCache} from '../../../source/gateway/channels/document-cache.js';
import type {FeedDocument} from '../../../source/gateway/types.js';

const doc = (name: string, description = ''): FeedDocument => ({
  kind: 'channel',
  name,
  title: name,
  description,
  siteUrl: null,
  items: [],
  updatedAt: 0,
  version: 'v',
  maxAgeSeconds: 60,
  stale: false,
});

describe('document cache', () => {
  it('keeps a document until its channel changes', () => {
    const cache = createDocumentCache();
    cache.set('a', cache.generation('a'), {document: doc('a'), expiresAt: 10});
    expect(cache.get('a')?.document.name).toBe('a');
    cache.invalidate('a');
    expect(cache.get('a')).toBeUndefined();
  });

  it('drops a document read before a change that landed while it was read', () => {
    const cache = createDocumentCache();
    const before = cache.generation('a');
    cache.invalidate('a'); // a post lands while the read is in flight
    cache.set('a', before, {document: doc('a'), expiresAt: 10});
    expect(cache.get('a')).toBeUndefined();
    cache.set('a', cache.generation('a'), {document: doc('a'), expiresAt: 10});
    expect(cache.get('a')).toBeDefined();
  });

  it('stays within its byte budget, evicting the least recently used', () => {
    const cache = createDocumentCache(4000);
    for (const name of ['a', 'b', 'c']) cache.set(name, 0, {document: doc(name, 'x'.repeat(600)), expiresAt: 10});
    expect(cache.get('a')).toBeDefined(); // a is now the most recently used
    cache.set('d', 0, {document: doc('d', 'x'.repeat(600)), expiresAt: 10});
    expect(cache.get('b')).toBeUndefined();
    expect(['a', 'c', 'd'].map((name) => cache.get(name) !== undefined)).toEqual([true, true, true]);
    cache.set('huge', 0, {document: doc('huge', 'x'.repeat(5000)), expiresAt: 10});
    expect(cache.get('huge')).toBeUndefined();
  });
});
