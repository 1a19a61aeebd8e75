import {describe, expect, it} from 'vitest';
import {articleView} from '../../../source/feeds/article-text.js';
import {formatArticles, formatDiscovered, formatFeeds, formatImport, formatList, formatLists} from '../../../source/cli/feeds/format.js';
import {text} from '../../../source/cli/feeds/reader-task.js';
import {formatParsedFeed} from '../../../source/feeds/parser/format-text.js';
import {parseFeed} from '../../../source/feeds/parser/index.js';
import type {Article, Feed, FullArticle, List} from '../../../source/feeds/types.js';
import {formatErrorsCompact} from '../../../source/incidents/format.js';
import {extractHttpMessage} from '../../../source/incidents/http-message.js';
import {formatProcessTable} from '../../../source/processes/describe.js';
import type {ProcessInfo} from '../../../source/processes/types.js';
import {toTerminalLine, toTerminalText} from '../../../source/text/terminal-safe.js';
import {lastLines, toDisplayLines} from '../../../source/tui/text/terminalLines.js';

// A feed title that writes the clipboard (OSC 52), clears the screen and sets the window title.
const HOSTILE = '\x1b]52;c;ZXZpbA==\x07\x1b[2J\x1b]0;pwned\x07Hello';
// The same jobs in 8-bit C1 form (CSI 0x9B, OSC 0x9D ... ST 0x9C), a DCS, and a bidi override.
const HOSTILE_C1 = '\x9b2J\x9d0;pwned\x9c\x1bPq#0;2;0;0;0\x1b\\\u202eHello\u202c';

/** No byte a terminal would act on: ESC, BEL, any C0 but tab and newline, DEL, C1, bidi overrides. */
function expectInert(output: string): void {
  expect(output).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/);
  expect(output).not.toContain('pwned');
  expect(output).not.toContain('ZXZpbA');
}

describe('toTerminalText / toTerminalLine', () => {
  it('drop OSC 52, OSC 0, CSI and their parameters, and keep the text', () => {
    expect(toTerminalText(HOSTILE)).toBe('Hello');
    expect(toTerminalLine(HOSTILE)).toBe('Hello');
  });

  it('drop the 8-bit C1 forms, DCS strings and bidi overrides', () => {
    expect(toTerminalText(HOSTILE_C1)).toBe('Hello');
    expect(toTerminalText('a\x85b\x80c')).toBe('abc');
  });

  it('keep newlines and tabs in text; make one line of them in a line', () => {
    expect(toTerminalText('a\tb\nc\r\x07d\x7f')).toBe('a\tb\ncd');
    expect(toTerminalLine('a\tb\nc\r\nd\u2028e')).toBe('a b c d e');
  });

  it('keep colours only when asked, and then nothing else', () => {
    const coloured = '\x1b[31mred\x1b[0m\x1b[2J\x1b]0;pwned\x07\x1b[10;10H!';
    expect(toTerminalText(coloured, {colours: true})).toBe('\x1b[31mred\x1b[0m!');
    expect(toTerminalText(coloured)).toBe('red!');
  });

  it('leave safe text as it is (no-break spaces, emoji, right-to-left letters)', () => {
    const safe = 'Tom\u00a0&\u00a0Jerry 🎉 שלום — ünïcödé';
    expect(toTerminalText(safe)).toBe(safe);
    expect(toTerminalLine(safe)).toBe(safe);
  });

  it('cannot be tricked into building a sequence out of the pieces it removes', () => {
    expectInert(toTerminalText('\x1b\x00[2J\x1b[3\x001m'));
    expectInert(toTerminalText('\x1b\x1b]0;pwned\x07'));
  });
});

const feed: Feed = {
  id: 1,
  url: `http://127.0.0.1/feed?${HOSTILE}`,
  title: HOSTILE,
  siteUrl: null,
  category: HOSTILE,
  unreadCount: 1,
  fetchStatus: 'error',
  lastError: `HTTP 500: ${HOSTILE}`,
  lastFetchedAt: null,
  lastSuccessAt: null,
  nextFetchAt: null,
  createdAt: '2026-11-20T10:00:00Z',
};
const article: Article = {
  id: 7,
  feedId: 1,
  title: HOSTILE_C1 + HOSTILE,
  link: `http://127.0.0.1/${HOSTILE}`,
  author: HOSTILE,
  publishedAt: HOSTILE,
  summary: HOSTILE,
  categories: [HOSTILE],
  read: false,
  snoozedUntil: null,
};
const full: FullArticle = {
  ...article,
  content: `<p>${HOSTILE}</p><p>&#27;]0;pwned&#7;World</p><pre>${HOSTILE_C1}</pre>`,
  listIds: [],
  snoozedUntil: null,
  enclosures: [{url: `http://127.0.0.1/${HOSTILE}`, type: HOSTILE}],
};
const list: List = {id: 2, title: HOSTILE, visibility: 'public', rssUrl: `http://127.0.0.1/rss/${HOSTILE}`, itemCount: 1, createdAt: '2026-11-20T10:00:00Z'};

describe('the CLI formatters make text from outside inert', () => {
  it('feeds, articles, lists, discovery and import tables', () => {
    for (const output of [
      formatFeeds([feed]),
      formatArticles({articles: [article], nextCursor: null}, [feed]),
      formatLists([list]),
      formatList(list),
      formatDiscovered([{url: feed.url, title: HOSTILE, format: 'rss'}]),
      formatImport({added: 0, skipped: 0, failed: [{url: feed.url, error: HOSTILE}]}),
    ]) {
      expectInert(output);
      expect(output).toContain('Hello');
    }
  });

  it('the article reader view (header and body; &#27; in the HTML decodes to ESC and goes too)', () => {
    for (const brief of [false, true]) {
      const view = articleView(full, feed, 60, {brief});
      expectInert([...view.header, ...view.body].join('\n'));
      expect(view.body.join('\n')).toContain('World');
    }
  });

  it('the feed reader commands print through one text() that makes output inert', () => {
    expectInert(text(`subscribed: feed 1 "${HOSTILE}"`).stdout!);
  });

  it('feeds parse prints a parsed hostile feed inert (and --json keeps the title whole)', () => {
    const json = JSON.stringify({
      version: 'https://jsonfeed.org/version/1.1',
      title: HOSTILE,
      items: [{id: '1', title: HOSTILE, url: `http://127.0.0.1/${HOSTILE}`, content_text: HOSTILE}],
    });
    const parsed = parseFeed(Buffer.from(json), 'application/feed+json');
    expect(parsed.title).toContain('\x1b]52;');
    const output = formatParsedFeed(parsed);
    expectInert(output);
    expect(output).toMatch(/^Hello\n/);
  });

  it('proc list', () => {
    const info: ProcessInfo = {
      id: 'web',
      project: '/app',
      command: `echo '${HOSTILE}'`,
      cwd: '/app',
      status: 'running',
      pid: 42,
      startedAt: 0,
      restarts: 0,
      run: 1,
      outputBytes: 0,
      alertCount: 0,
    };
    expectInert(formatProcessTable([info], 1000));
  });

  it('get-errors: messages, categories, locations and pages quoting remote text', () => {
    const output = formatErrorsCompact(
      [{source: 'proxy:http', severity: 'error', category: HOSTILE, message: `${HOSTILE}\nmore`, location: HOSTILE, page: HOSTILE, count: 1, last_seen: '2026-11-20T10:00:00Z'}],
      Date.parse('2026-11-20T10:00:05Z'),
    );
    expectInert(output);
  });

  it('an HTTP error body in the inbox: JSON, HTML (with &#27;) and plain text', () => {
    expectInert(extractHttpMessage(JSON.stringify({message: HOSTILE}), 'application/json'));
    expectInert(extractHttpMessage(`<h1>&#27;]0;pwned&#7;Down</h1>`, 'text/html'));
    expectInert(extractHttpMessage(HOSTILE_C1, 'text/plain'));
    expect(extractHttpMessage(`<h1>&#27;]0;pwned&#7;Down</h1>`, 'text/html')).toBe('Down');
  });
});

describe('the TUI text layer', () => {
  it('process output keeps colours and drops titles, clipboard writes, clears and cursor moves', () => {
    const raw = `\x1b[32mready\x1b[0m\r\n${HOSTILE}\n\x1b[1A\x1b[10;1H${HOSTILE_C1}\n`;
    const lines = toDisplayLines(raw);
    expect(lines).toEqual(['\x1b[32mready\x1b[0m', 'Hello', 'Hello']);
    expectInert(lines.join('\n').replace(/\x1b\[[0-9;]*m/g, ''));
  });

  it('the Processes pane preview (lastLines) is inert too', () => {
    const lines = lastLines(`${HOSTILE}\r${HOSTILE}\n`, 5);
    expect(lines).toEqual(['Hello']);
    expectInert(lines.join('\n'));
  });
});
