import React from 'react';
import {afterEach, describe, expect, it, vi} from 'vitest';
import {cleanup} from 'ink-testing-library';
import {feedsPane} from '../../../source/tui/panes/feeds.js';
import {WorkbenchError} from '../../../source/core/errors.js';
import type {ReaderService} from '../../../source/feeds/contracts.js';
import type {ArticlePage, ArticleQuery, CategoryCount, DiscoveredFeed, Feed, FullArticle, List, Visibility} from '../../../source/feeds/types.js';
import type {TuiBackend} from '../../../source/tui/backend.js';
import {MemoryBackend} from './memoryBackend.js';
import {KEYS, renderApp, type Size} from './renderApp.js';

afterEach(() => {
  cleanup();
});

const NOW = Date.now();
const hoursAgo = (hours: number) => new Date(NOW - hours * 3_600_000).toISOString();

function feed(id: number, title: string, url: string, extra: Partial<Feed> = {}): Feed {
  return {id, url, title, siteUrl: null, category: null, unreadCount: 0, fetchStatus: 'ok', lastError: null, lastFetchedAt: hoursAgo(1), lastSuccessAt: hoursAgo(1), nextFetchAt: null, createdAt: hoursAgo(100), ...extra};
}

function article(id: number, feedId: number, title: string, hours: number, content: string | null, extra: Partial<FullArticle> = {}): FullArticle {
  return {id, feedId, title, link: `https://example.org/posts/${id}`, author: 'Ada', publishedAt: hoursAgo(hours), summary: null, categories: [], read: false, content, listIds: [], snoozedUntil: null, ...extra};
}

const LONG_BODY = Array.from({length: 80}, (_, index) => `<p>Paragraph number ${index + 1} of the long read.</p>`).join('');

type Failing = Partial<Record<keyof ReaderService, Error>>;

/** A ReaderService over arrays: what the Feeds pane needs, recording each call, failing on demand. */
class MemoryReader implements ReaderService {
  feeds = [feed(1, 'Artificial truth', 'https://dustri.org/b/feed.xml'), feed(2, 'Miniflux commits', 'https://github.com/miniflux/v2/commits/main.atom', {fetchStatus: 'error', lastError: 'GET https://github.com/... timed out after 20 s'})];
  articles: FullArticle[] = [
    article(11, 1, 'Using vale with vim', 2, '<p>LWN recently published an <em>excellent</em> <a href="https://lwn.net/Articles/964075/">article</a> on vale.</p><ul><li>first point</li><li>second point</li></ul>'),
    article(12, 1, 'A long read', 30, LONG_BODY),
    article(21, 2, 'Parse podcast categories', 5, '<pre>Parse podcast categories</pre>', {read: true}),
    article(22, 2, 'Move iTunes definitions to their own packages', 50, null, {summary: '<p>Refactoring of the <b>iTunes</b> parser.</p>'}),
  ];
  lists: List[] = [
    {id: 7, title: 'Read later', visibility: 'private', itemCount: 0, createdAt: hoursAgo(10)},
    {id: 8, title: 'Shared picks', visibility: 'public', token: 'tok', rssUrl: 'http://127.0.0.1:7700/api/v1/lists/tok.xml', itemCount: 1, createdAt: hoursAgo(9)},
  ];
  items = new Map<number, Set<number>>([[8, new Set([21])]]);
  calls: Array<{method: string; args: unknown[]}> = [];
  failing: Failing = {};

  private record(method: keyof ReaderService, ...args: unknown[]): void {
    if (method !== 'listFeeds' && method !== 'listArticles' && method !== 'getArticle' && method !== 'listLists') this.calls.push({method, args});
    const failure = this.failing[method];
    if (failure) throw failure;
  }

  callsTo(method: keyof ReaderService): unknown[][] {
    return this.calls.filter(call => call.method === method).map(call => call.args);
  }

  private find(id: number): FullArticle {
    const found = this.articles.find(item => item.id === id);
    if (!found) throw new WorkbenchError('not_found', `no article ${id}`);
    return found;
  }

  private full(item: FullArticle): FullArticle {
    const listIds = [...this.items].filter(([, ids]) => ids.has(item.id)).map(([listId]) => listId);
    return {...item, listIds};
  }

  async listFeeds(): Promise<Feed[]> {
    this.record('listFeeds');
    return this.feeds.map(entry => ({...entry, unreadCount: this.articles.filter(item => item.feedId === entry.id && !item.read).length}));
  }
  async getFeed(id: number): Promise<Feed> {
    this.record('getFeed', id);
    const found = (await this.listFeeds()).find(entry => entry.id === id);
    if (!found) throw new WorkbenchError('not_found', `no feed ${id}`);
    return found;
  }
  async subscribe(url: string): Promise<{feed: Feed} | {choices: DiscoveredFeed[]}> {
    this.record('subscribe', url);
    throw new WorkbenchError('not_a_feed', 'not used by the pane');
  }
  async discover(url: string): Promise<DiscoveredFeed[]> {
    this.record('discover', url);
    return [];
  }
  async unsubscribe(id: number): Promise<void> {
    this.record('unsubscribe', id);
  }
  async refresh(id: number): Promise<{newArticles: number}> {
    this.record('refresh', id);
    this.articles.unshift(article(30 + id, id, `Fresh from feed ${id}`, 0.1, '<p>new</p>'));
    return {newArticles: 1};
  }
  async markAllRead(feedId: number): Promise<{marked: number}> {
    this.record('markAllRead', feedId);
    const unread = this.articles.filter(item => item.feedId === feedId && !item.read);
    for (const item of unread) item.read = true;
    return {marked: unread.length};
  }
  async listArticles(query: ArticleQuery): Promise<ArticlePage> {
    this.record('listArticles', query);
    const matching = this.articles.filter(item => query.feed_id === undefined || item.feedId === query.feed_id).sort((a, b) => (b.publishedAt ?? '').localeCompare(a.publishedAt ?? ''));
    return {articles: matching.map(({content: _content, listIds: _listIds, snoozedUntil: _snoozed, ...rest}) => rest), nextCursor: null};
  }
  async getArticle(id: number): Promise<FullArticle> {
    this.record('getArticle', id);
    return this.full(this.find(id));
  }
  async setRead(id: number, read: boolean): Promise<FullArticle> {
    this.record('setRead', id, read);
    this.find(id).read = read;
    return this.full(this.find(id));
  }
  async snooze(id: number, until: string | null): Promise<FullArticle> {
    this.record('snooze', id, until);
    this.find(id).snoozedUntil = until;
    return this.full(this.find(id));
  }
  async categories(): Promise<CategoryCount[]> {
    return [];
  }
  async listLists(): Promise<List[]> {
    this.record('listLists');
    return this.lists.map(list => ({...list, itemCount: this.items.get(list.id)?.size ?? 0}));
  }
  async createList(title: string, visibility: Visibility): Promise<List> {
    this.record('createList', title, visibility);
    const list: List = {id: 9, title, visibility, itemCount: 0, createdAt: new Date().toISOString()};
    this.lists.push(list);
    return list;
  }
  async deleteList(id: number): Promise<void> {
    this.record('deleteList', id);
  }
  async addToList(listId: number, articleId: number): Promise<List> {
    this.record('addToList', listId, articleId);
    if (!this.items.has(listId)) this.items.set(listId, new Set());
    this.items.get(listId)!.add(articleId);
    return (await this.listLists()).find(list => list.id === listId)!;
  }
  async removeFromList(listId: number, articleId: number): Promise<List> {
    this.record('removeFromList', listId, articleId);
    this.items.get(listId)?.delete(articleId);
    return (await this.listLists()).find(list => list.id === listId)!;
  }
  async listRss(): Promise<string> {
    return '';
  }
  async importOpml(): Promise<{added: number; skipped: number; failed: {url: string; error: string}[]}> {
    return {added: 0, skipped: 0, failed: []};
  }
  async exportOpml(): Promise<string> {
    return '';
  }
  async close(): Promise<void> {}
}

function backendWith(reader: ReaderService | Error): TuiBackend {
  const backend = new MemoryBackend() as unknown as TuiBackend;
  backend.reader = async () => {
    if (reader instanceof Error) throw reader;
    return reader;
  };
  return backend;
}

function renderFeeds(reader: ReaderService | Error, size: Size = {columns: 120, rows: 40}) {
  return renderApp(backendWith(reader), size, {panes: [feedsPane], title: 'workbench'});
}

describe('Feeds pane', () => {
  it('shows feeds with unread counts and every article newest first, each naming its feed', async () => {
    const app = await renderFeeds(new MemoryReader());
    await app.waitForText('Using vale with vim');
    // Three unread in all: two in Artificial truth, one in Miniflux commits.
    expect(app.frame()).toMatch(/▸\s+3\s+All articles/);
    expect(app.frame()).toMatch(/^│ {4}2 {3}Artificial truth/m);
    // The failing feed carries a mark.
    expect(app.frame()).toMatch(/^│ {4}1 ! Miniflux commits/m);
    const frame = app.frame();
    const order = ['Using vale with vim', 'Parse podcast categories', 'A long read', 'Move iTunes'].map(title => frame.indexOf(title));
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(app.line('Using vale with vim')).toMatch(/N\s+\w{3}\s+\d+\s+Artificial truth\s+Using vale/);
    // Read articles carry no N.
    expect(app.line('Parse podcast categories')).not.toMatch(/│\s*▸?N /);
    expect(frame).toContain('enter open · r read/unread');
  });

  it('selecting a feed shows only its articles and its last error; Tab moves to the articles, Enter reads one as text from its HTML', async () => {
    const reader = new MemoryReader();
    const app = await renderFeeds(reader);
    await app.waitForText('Using vale with vim');
    await app.press(KEYS.down, KEYS.down);
    await app.waitFor(frame => !frame.includes('Using vale with vim') && frame.includes('Parse podcast categories'), 'Miniflux articles');
    expect(app.frame()).toContain('! Miniflux commits: GET https://github.com/... timed out after 20 s');
    await app.press(KEYS.up);
    await app.waitFor(frame => frame.includes('Using vale with vim') && !frame.includes('Parse podcast'), 'Artificial truth articles');

    await app.press(KEYS.tab, KEYS.enter);
    await app.waitForText('LWN recently published');
    const frame = app.frame();
    // The HTML became text: emphasis gone, the link's target kept, the list as bullets.
    expect(frame).toMatch(/LWN recently published an excellent article\s*<https:\/\/lwn\.net\/Articles\/964075\/>/);
    expect(frame).toMatch(/\*\s+first point/);
    expect(frame).not.toContain('<em>');
    expect(frame).toContain('Link:    https://example.org/posts/11');
    expect(frame).toContain('Feed:    Artificial truth');
    // Opening reads it.
    await vi.waitFor(() => expect(reader.callsTo('setRead')).toEqual([[11, true]]));

    // n: the next unread article of the list, read in turn; at the end, a line says so.
    await app.press('n');
    await app.waitFor(frame => frame.includes('Paragraph number 1 of') && !frame.includes('LWN recently'), 'next unread article');
    await vi.waitFor(() => expect(reader.callsTo('setRead')).toEqual([[11, true], [12, true]]));
    await app.press('n');
    await app.waitForText('no more unread articles here');

    await app.press(KEYS.escape);
    await app.waitFor(frame => !frame.includes('Paragraph number') && frame.includes('A long read'), 'back to the list');
    expect(app.line('Using vale with vim')).not.toMatch(/N\s+\w{3}/);
  });

  it('scrolls a long article with ↓, space and PgUp; q goes back to the list instead of quitting', async () => {
    const app = await renderFeeds(new MemoryReader());
    await app.waitForText('A long read');
    await app.press(KEYS.tab, KEYS.down, KEYS.down, KEYS.enter);
    await app.waitForText('Paragraph number 1 of');
    expect(app.frame()).not.toContain('Paragraph number 40 of');
    await app.press(' ', ' ');
    await app.waitForText('Paragraph number 40 of');
    expect(app.frame()).not.toContain('Paragraph number 1 of');
    await app.press(KEYS.down);
    await app.press('\u001b[5~');
    await app.waitFor(frame => !frame.includes('Paragraph number 40 of'), 'a page up');
    await app.press('q');
    await app.waitFor(frame => frame.includes('Using vale with vim') && !frame.includes('Paragraph number'), 'list again');
  });

  it('r toggles read, m marks the feed read, R refreshes it, each saying what happened', async () => {
    const reader = new MemoryReader();
    const app = await renderFeeds(reader);
    await app.waitForText('Using vale with vim');
    await app.press(KEYS.tab, 'r');
    await app.waitForText('marked read: Using vale with vim');
    expect(reader.callsTo('setRead')).toEqual([[11, true]]);
    await app.press('r');
    await app.waitForText('marked unread: Using vale with vim');
    expect(reader.callsTo('setRead')).toEqual([
      [11, true],
      [11, false],
    ]);

    await app.press(KEYS.shiftTab, KEYS.down, 'm');
    await app.waitForText('Artificial truth: 2 articles marked read');
    expect(reader.callsTo('markAllRead')).toEqual([[1]]);
    await app.waitFor(frame => /▸\s+Artificial truth/.test(frame), 'no unread count left');

    await app.press('R');
    await app.waitForText('Artificial truth: 1 new article');
    expect(reader.callsTo('refresh')).toEqual([[1]]);
    await app.waitForText('Fresh from feed 1');
  });

  it('z snoozes until tomorrow 08:00 or a typed time; an unreadable or past time is one error line', async () => {
    const reader = new MemoryReader();
    const app = await renderFeeds(reader);
    await app.waitForText('Using vale with vim');
    await app.press(KEYS.tab, 'z');
    await app.waitForText('snooze until:');
    await app.press(KEYS.enter);
    await app.waitForText(/snoozed until \d{4}-\d\d-\d\d 08:00: Using vale with vim/);
    const [[id, until]] = reader.callsTo('snooze') as [[number, string]];
    expect(id).toBe(11);
    const expected = new Date();
    expected.setDate(expected.getDate() + 1);
    expected.setHours(8, 0, 0, 0);
    expect(until).toBe(expected.toISOString());

    await app.press('z', '2', 'h', KEYS.enter);
    await vi.waitFor(() => expect(reader.callsTo('snooze')).toHaveLength(2));
    const later = Date.parse((reader.callsTo('snooze')[1] as [number, string])[1]);
    expect(later - Date.now()).toBeGreaterThan(7_100_000);
    expect(later - Date.now()).toBeLessThanOrEqual(7_200_000);

    // Typed fast (or pasted), the text and Enter arrive as one chunk.
    await app.press('z', '30m\r');
    await vi.waitFor(() => expect(reader.callsTo('snooze')).toHaveLength(3));
    expect(Date.parse((reader.callsTo('snooze')[2] as [number, string])[1]) - Date.now()).toBeLessThanOrEqual(1_800_000);

    await app.press('z', ...'2020-01-01', KEYS.enter);
    await app.waitForText(/! snooze: 2020-01-01T00:00:00.000Z is in the past/);
    await app.press('z', ...'soonish', KEYS.enter);
    await app.waitForText(/! snooze: expected an ISO 8601 time/);
    expect(reader.callsTo('snooze')).toHaveLength(3);
    // Esc in the prompt cancels without a call.
    await app.press('z', KEYS.escape);
    await app.waitFor(frame => !frame.includes('snooze until:'), 'prompt closed');
    expect(reader.callsTo('snooze')).toHaveLength(3);
  });

  it('l picks a list to save the article to, marks the lists that have it, and Enter there takes it out', async () => {
    const reader = new MemoryReader();
    const app = await renderFeeds(reader);
    await app.waitForText('Using vale with vim');
    await app.press(KEYS.tab, 'l');
    await app.waitForText('Save “Using vale with vim” to a list');
    await app.waitForText(/▸ {3}Read later\s+private · 0 items/);
    // q closes the picker, not the app.
    await app.press('q');
    await app.waitFor(frame => !frame.includes('to a list'), 'picker closed');
    await app.press('l');
    await app.waitForText('Read later');
    await app.press(KEYS.enter);
    await app.waitForText('saved to "Read later"');
    expect(reader.callsTo('addToList')).toEqual([[7, 11]]);

    // Parse podcast categories (id 21) is already in Shared picks.
    await app.press(KEYS.down, 'l');
    await app.waitForText('Save “Parse podcast categories” to a list');
    await app.waitForText(/✓ Shared picks/);
    await app.press(KEYS.down, KEYS.enter);
    await app.waitForText('removed from "Shared picks"');
    expect(reader.callsTo('removeFromList')).toEqual([[8, 21]]);

    // The row after the lists makes a new one and saves the article to it; q types into its title.
    await app.press('l');
    await app.waitForText('+ new private list…');
    await app.press(KEYS.down, KEYS.down, KEYS.down, KEYS.enter);
    await app.waitForText('title:');
    await app.press(...'quiet reads', KEYS.enter);
    await app.waitForText('saved to new list "quiet reads"');
    expect(reader.callsTo('createList')).toEqual([['quiet reads', 'private']]);
    expect(reader.callsTo('addToList').at(-1)).toEqual([9, 21]);
  });

  it('/ filters the focused column', async () => {
    const app = await renderFeeds(new MemoryReader());
    await app.waitForText('Using vale with vim');
    await app.press(KEYS.tab, '/', ...'podcast', KEYS.enter);
    await app.waitFor(frame => frame.includes('Parse podcast categories') && !frame.includes('Using vale with vim'), 'filtered articles');
    expect(app.frame()).toContain('filter: podcast');
    await app.press(KEYS.escape);
    await app.waitForText('Using vale with vim');
  });

  it('errors are one line and the pane keeps working', async () => {
    const reader = new MemoryReader();
    reader.failing.setRead = new WorkbenchError('not_found', 'no article 11');
    const app = await renderFeeds(reader);
    await app.waitForText('Using vale with vim');
    await app.press(KEYS.tab, 'r');
    await app.waitForText('! mark read failed: no article 11');
    reader.failing.listArticles = new Error('reader server not reachable at http://127.0.0.1:7700: ECONNREFUSED\n    at somewhere');
    await app.press('R');
    await app.waitForText('! reader server not reachable at http://127.0.0.1:7700: ECONNREFUSED');
    expect(app.frame()).not.toContain('at somewhere');
    // Articles already shown stay.
    expect(app.frame()).toContain('Using vale with vim');
  });

  it('a reader that cannot be opened is one line, not a crash', async () => {
    const app = await renderFeeds(new WorkbenchError('invalid_argument', 'WORKBENCH_READER_URL: "ftp://x" is not an http(s) URL'));
    await app.waitForText('! feed reader unavailable: WORKBENCH_READER_URL: "ftp://x" is not an http(s) URL');
    await app.press(KEYS.down, KEYS.tab, 'r', 'm', 'z');
    expect(app.frame()).toContain('feed reader unavailable');
  });

  it('on a small terminal shows one column at a time', async () => {
    const app = await renderFeeds(new MemoryReader(), {columns: 60, rows: 20});
    await app.waitForText('Artificial truth');
    expect(app.frame()).not.toContain('Using vale with vim');
    await app.press(KEYS.down, KEYS.enter);
    await app.waitFor(frame => frame.includes('Using vale with vim') && !frame.includes('Miniflux commits'), 'articles column alone');
    for (const row of app.frame().split('\n')) expect([...row].length).toBeLessThanOrEqual(60);
    await app.press(KEYS.shiftTab);
    await app.waitForText('Miniflux commits');
  });
});
