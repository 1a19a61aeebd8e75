// Namespace URIs folded to the short ids the readers match on. The ids are the usual prefixes, so
// a feed that uses `dc:creator` without declaring dc (common) still reads right.
const BY_URI: Record<string, string> = {
  'http://www.w3.org/2005/atom': 'atom',
  'http://purl.org/atom/ns#': 'atom',
  'http://purl.org/rss/1.0/': '',
  'http://purl.org/rss/1.0': '',
  'http://my.netscape.com/rdf/simple/0.9/': '',
  'http://channel.netscape.com/rdf/simple/0.9/': '',
  'http://backend.userland.com/rss2': '',
  'http://backend.userland.com/rss': '',
  'http://blogs.law.harvard.edu/tech/rss': '',
  'http://www.w3.org/1999/02/22-rdf-syntax-ns#': 'rdf',
  'http://purl.org/dc/elements/1.1/': 'dc',
  'http://purl.org/dc/terms/': 'dcterms',
  'http://purl.org/rss/1.0/modules/content/': 'content',
  'http://www.w3.org/1999/xhtml': 'xhtml',
  'http://search.yahoo.com/mrss/': 'media',
  'http://search.yahoo.com/mrss': 'media',
  'http://www.itunes.com/dtds/podcast-1.0.dtd': 'itunes',
  'http://rssnamespace.org/feedburner/ext/1.0': 'feedburner',
  'http://www.w3.org/xml/1998/namespace': 'xml',
};

/** Short id for a namespace URI; an unknown URI stays itself (it contains ':', so matches no id). */
export function namespaceId(uri: string): string {
  const key = uri.trim().toLowerCase();
  const id = BY_URI[key];
  return id ?? (key === '' ? '' : key);
}
