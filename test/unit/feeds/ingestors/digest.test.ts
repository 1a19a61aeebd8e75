import {describe, expect, it} from 'vitest';
import {DIGEST_POSTS_SHOWN, digestArticle, spanText} from '../../../../source/feeds/ingestors/digest/digest-article.js';
import {nextBoundary} from '../../../../source/feeds/ingestors/digest/boundary.js';
import type {ScoredStatus} from '../../../../source/feeds/ingestors/types.js';

const HOUR = Date.parse('2026-11-24T11:00:00Z');

function scored(key: string, handle: string, score: number, extra: {thread?: string; text?: string; repostedBy?: string} = {}): ScoredStatus {
  return {
    score,
    kept: true,
    reasons: [],
    status: {
      key,
      url: `https://social.example/@${handle}/${key}`,
      author: {handle, name: handle === 'alice' ? 'Alice <A>' : null, url: null},
      title: null,
      text: extra.text ?? `Post ${key} by ${handle}`,
      html: null,
      createdAt: '2026-11-24T10:30:00Z',
      editedAt: null,
      engagement: {likes: 0, reposts: 0, replies: 0},
      repostedBy: extra.repostedBy ?? null,
      replyTo: null,
      replyToSelf: false,
      threadKey: extra.thread ?? key,
      links: [],
      tags: [],
      deleted: false,
    },
  };
}

describe('digest boundaries', () => {
  it('hourly: the next top of the hour; daily: the next midnight UTC; a boundary itself is past', () => {
    expect(new Date(nextBoundary('hourly', Date.parse('2026-11-24T10:59:59.999Z'))!).toISOString()).toBe('2026-11-24T11:00:00.000Z');
    expect(new Date(nextBoundary('hourly', HOUR)!).toISOString()).toBe('2026-11-24T12:00:00.000Z');
    expect(new Date(nextBoundary('daily', Date.parse('2026-12-31T23:30:00Z'))!).toISOString()).toBe('2027-01-01T00:00:00.000Z');
  });

  it('names the span the digest covers, in UTC', () => {
    expect(spanText('hourly', HOUR)).toBe('24 Nov 2026 10:00–11:00 UTC');
    expect(spanText('hourly', Date.parse('2026-11-25T00:00:00Z'))).toBe('24 Nov 2026 23:00–24:00 UTC');
    expect(spanText('daily', Date.parse('2026-11-25T00:00:00Z'))).toBe('24 Nov 2026 UTC');
  });
});

describe('the digest article', () => {
  it('groups by thread then author, best group first, best post first; every entry has its author, link and score', () => {
    const item = digestArticle('Mastodon #rust', 'hourly', HOUR, [
      scored('a1', 'alice', 0.4, {thread: 't1'}),
      scored('b1', 'bob', 0.9),
      scored('a2', 'alice', 0.7, {thread: 't1'}),
      scored('c1', 'carol', 0.5, {repostedBy: 'zed'}),
    ]);
    expect(item.title).toBe('Mastodon #rust — digest, 24 Nov 2026 10:00–11:00 UTC (4 posts)');
    expect(item.guid).toBe(`digest:${HOUR}`);
    expect(item.published).toBe('2026-11-24T11:00:00.000Z');
    const html = item.content!;
    const order = ['@bob', 'Alice &lt;A&gt; (@alice) · 2 posts', '@carol'].map((text) => html.indexOf(text));
    expect(order.every((at) => at >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(html.indexOf('Post a2')).toBeLessThan(html.indexOf('Post a1'));
    expect(html).toContain('href="https://social.example/@bob/b1"');
    expect(html).toContain('(score 0.90)');
    expect(html).toContain('boosted by @zed');
  });

  it('escapes what the network sent, and shows the best posts only when there are too many', () => {
    const many = Array.from({length: DIGEST_POSTS_SHOWN + 25}, (_, index) =>
      scored(`k${index}`, `user${index % 7}`, index / 1000, {text: index === 0 ? '<script>alert(1)</script> & <img src=x onerror=alert(2)>' : `Post ${index}`}),
    );
    const item = digestArticle('Bluesky feed', 'daily', Date.parse('2026-11-25T00:00:00Z'), many);
    expect(item.title).toBe(`Bluesky feed — digest, 24 Nov 2026 UTC (${DIGEST_POSTS_SHOWN + 25} posts)`);
    expect(item.content).not.toMatch(/<script|<img/);
    expect(item.content).toContain('… and 25 more posts that scored lower.');
    // The lowest scores are the ones left out.
    expect(item.content).not.toContain('>Post 1<');
    expect(item.content).toContain(`Post ${DIGEST_POSTS_SHOWN + 24}`);
    expect((item.content!.match(/<li>/g) ?? []).length).toBe(DIGEST_POSTS_SHOWN);
  });
});
