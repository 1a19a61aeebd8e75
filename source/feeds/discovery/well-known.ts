/** Where sites put feeds without announcing them (Miniflux, WordPress, Hugo, Jekyll, Blogger). */
export const WELL_KNOWN_FEED_PATHS = ['feed', 'feed/', 'rss', 'rss.xml', 'atom.xml', 'index.xml', 'feed.xml', 'feeds/posts/default'];

/**
 * Candidate URLs for a page: the well-known paths at the site root and, for a page inside a
 * folder (example.com/blog/post), in that folder too. The page itself is never a candidate.
 */
export function wellKnownCandidates(pageUrl: string): string[] {
  const page = new URL(pageUrl);
  const folders = [new URL('/', page).href];
  const folder = new URL('./', page).href;
  if (folder !== folders[0]) folders.push(folder);
  const candidates: string[] = [];
  for (const base of folders) {
    for (const path of WELL_KNOWN_FEED_PATHS) {
      const href = new URL(path, base).href;
      if (href !== page.href && !candidates.includes(href)) candidates.push(href);
    }
  }
  return candidates;
}
