// The feed corpus (feedparser's and Miniflux's test feeds, with their licences): fixtures/feeds.
import {readdirSync} from 'node:fs';
import path from 'node:path';
import {fileURLToPath} from 'node:url';

export const CORPUS = fileURLToPath(new URL('../../../../fixtures/feeds', import.meta.url));

/** Feed files under `folder` of the corpus, as paths relative to it, sorted. */
export function corpusFiles(folder = ''): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(path.join(CORPUS, dir), {withFileTypes: true}).flatMap((entry) => {
      const rel = path.join(dir, entry.name);
      if (entry.isDirectory()) return walk(rel);
      return /\.(xml|json|rss|atom)$/i.test(entry.name) ? [rel] : [];
    });
  return walk(folder).sort();
}

/** Where feedparser's test server would have served a file: the base of its relative links. */
export function feedparserUrl(rel: string, text: string): string {
  const docuri = `http://127.0.0.1:8097/tests/${rel.replace(/^feedparser\//, '')}`;
  const location = /Content-Location:\s*(\S+)/i.exec(text)?.[1];
  // feedparser ignores a Content-Location with an unsafe scheme.
  return location && !/^(?!https?:)[a-z]+:/i.test(location) ? new URL(location, docuri).href : docuri;
}

/** The Content-Type a feedparser test file says its server sent. */
export function feedparserContentType(text: string): string | null {
  return /Header:\s*Content-type:\s*(.*)/i.exec(text)?.[1]?.trim() ?? null;
}
