import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {startFeedOrigin, type FeedOrigin} from '../../fixtures/feed-origin/server.js';
import {expectOneLineFailure, makeSandbox, runCli, runCliJson, type Sandbox} from '../helpers/cli.js';

// `workbench articles show` with a podcast's enclosures: the built CLI, in-process on a store in a
// private WORKBENCH_HOME, the podcast fetched by `feeds add` from the local feed origin on 127.0.0.1.

const PODCAST = '/data/podcast/episodes.xml';

let sandbox: Sandbox;
let origin: FeedOrigin;
const cli = (args: string[]) => runCli(args, {env: sandbox.env, timeoutMs: 30_000});
const json = <T>(args: string[]): Promise<T> => runCliJson<T>(args, {env: sandbox.env, timeoutMs: 30_000});

interface ArticleJson {
  id: number;
  title: string;
  enclosures?: Array<{url: string; type?: string; length?: number; durationSeconds?: number}>;
}
const ids = new Map<string, number>();

beforeAll(async () => {
  sandbox = makeSandbox('wb-articles-enclosures-');
  origin = await startFeedOrigin();
  const added = await cli(['feeds', 'add', origin.url + PODCAST]);
  expect(added.code, added.stderr).toBe(0);
  expect(added.stdout).toMatch(/^subscribed: feed \d+ "Workbench Radio" · 3 unread/);
  const page = await json<{articles: ArticleJson[]}>(['articles', 'list']);
  for (const article of page.articles) ids.set(article.title, article.id);
});

afterAll(async () => {
  await origin?.close();
  await sandbox?.cleanup();
});

const show = async (title: string, ...flags: string[]) => {
  const result = await cli(['articles', 'show', String(ids.get(title)), '--width', '80', ...flags]);
  expect(result.code, result.stderr).toBe(0);
  return result.stdout;
};
const header = (stdout: string) => stdout.split('\n\n')[0]!.split('\n');

describe('workbench articles show: enclosures', () => {
  it('prints one enclosure as a header line with its type, size and playing time, before the text', async () => {
    const out = await show('Episode 1: the pilot');
    const lines = header(out);
    // The date is local time: only its shape is the same on every machine.
    expect(lines[2]).toMatch(/^Date: {4}2026-11-\d\d \d\d:\d\d$/);
    expect(lines.filter((_, index) => index !== 2)).toEqual([
      'Episode 1: the pilot',
      'Feed:    Workbench Radio',
      'Link:    https://radio.example/1',
      'Enclosure: https://cdn.radio.example/ep1.mp3 (audio/mpeg, 9.7 MB, 1:02:03)',
    ]);
    expect(out.split('\n\n')[1]).toContain('The first show.');
  });

  it('numbers several, in the feed’s order', async () => {
    expect(header(await show('Episode 2: in two parts')).filter((line) => line.startsWith('Enclosure'))).toEqual([
      'Enclosure 1: https://cdn.radio.example/ep2-part1.mp3 (audio/mpeg, 5.0 MB)',
      'Enclosure 2: https://cdn.radio.example/ep2-part2.mp3 (audio/mpeg, 4.0 MB)',
    ]);
  });

  it('an article without media has no enclosure line', async () => {
    expect(await show('Show notes only')).not.toContain('Enclosure');
  });

  it('--json carries the enclosures as stored (and [] for none)', async () => {
    const pilot = JSON.parse(await show('Episode 1: the pilot', '--json')) as ArticleJson;
    expect(pilot.enclosures).toEqual([{url: 'https://cdn.radio.example/ep1.mp3', type: 'audio/mpeg', length: 9_700_000, durationSeconds: 3723}]);
    const notes = JSON.parse(await show('Show notes only', '--json')) as ArticleJson;
    expect(notes.enclosures).toEqual([]);
  });

  it('a bad id is one line and exit 1', async () => {
    expectOneLineFailure(await cli(['articles', 'show', 'ep1.mp3']), /article id/);
    expectOneLineFailure(await cli(['articles', 'show', '999999']), /999999|not found/i);
  });
});
