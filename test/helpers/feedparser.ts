// Debian's python3-feedparser (the system Python: the pyenv one on PATH lacks it) reading a feed
// document in a child process: what an independent, widely used parser makes of our output. Tests
// ask requirePackage('python3-feedparser', …) first.
import {spawnSync} from 'node:child_process';
import {SYSTEM_PYTHON} from './system-package.js';

export interface FeedparserResult {
  bozo: number;
  bozoException: string | null;
  version: string;
  title: string;
  entries: Array<{title: string; link: string | null; id: string; published: string | null; summary: string}>;
}

const SCRIPT = `
import calendar, json, sys, feedparser
d = feedparser.parse(sys.stdin.buffer.read())
def when(e):
    t = e.get('published_parsed') or e.get('updated_parsed')
    return calendar.timegm(t) if t else None
print(json.dumps({
  'bozo': int(d.bozo), 'bozoException': str(d.get('bozo_exception')) if d.bozo else None,
  'version': d.version, 'title': d.feed.get('title', ''),
  'entries': [{'title': e.get('title', ''), 'link': e.get('link'), 'id': e.get('id', ''), 'published': when(e), 'summary': e.get('summary', '')} for e in d.entries],
}))
`;

/** The document as feedparser reads it; published is Unix seconds (feedparser keeps whole seconds). */
export function feedparser(
  document: string | Buffer,
): Omit<FeedparserResult, 'entries'> & {entries: Array<Omit<FeedparserResult['entries'][number], 'published'> & {published: number | null}>} {
  const child = spawnSync(SYSTEM_PYTHON, ['-c', SCRIPT], {input: document, encoding: 'utf8', timeout: 60_000});
  if (child.status !== 0) throw new Error(`feedparser failed (${child.status}): ${child.stderr}`);
  return JSON.parse(child.stdout);
}
