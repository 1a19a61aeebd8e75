import {parseOpml} from 'feedsmith';
import {WorkbenchError, describeError} from '../../core/errors.js';

/** A subscription named by an OPML file. */
export interface OpmlEntry {
  url: string;
  title: string | null;
  /** The folders it sits in as a path, outermost first (`Tech/Nested`), if any. */
  category: string | null;
  /** The site's address (`htmlUrl`), if given. */
  siteUrl: string | null;
}

type Outline = {text?: string; title?: string; xmlUrl?: string; htmlUrl?: string; category?: string; outlines?: Outline[]};

/**
 * Folders nest at most this deep; deeper ones are flattened into the folder at this depth. An
 * export writes the path back as nested outlines, and a 99-deep folder would make a document
 * that XML parsers (fast-xml-parser's nesting limit among them) refuse to read back.
 */
export const MAX_FOLDER_DEPTH = 8;
/** The store's category column holds 200 characters; a longer path keeps its outer folders whole. */
const CATEGORY_LIMIT = 200;

/**
 * Reads the feeds of an OPML document: every outline with an xmlUrl, at any depth, with the path
 * of the folder outlines above it as its category, `Tech/Nested` (else the first path of its own
 * `category` attribute). A `/` inside a folder's own name cannot be told from nesting; it stays.
 * Not OPML → invalid_body. feedsmith does not expand DTD entities, so an entity bomb stays small.
 */
export function readOpml(xml: string): OpmlEntry[] {
  let outlines: Outline[];
  try {
    outlines = (parseOpml(xml).body?.outlines ?? []) as Outline[];
  } catch (error) {
    throw new WorkbenchError('invalid_body', `not an OPML document: ${describeError(error)}`);
  }
  const entries: OpmlEntry[] = [];
  const walk = (list: Outline[], folder: string | null) => {
    for (const outline of list) {
      const label = (outline.title ?? outline.text ?? '').trim() || null;
      if (outline.xmlUrl?.trim()) {
        entries.push({url: outline.xmlUrl.trim(), title: label, category: folderPath(folder ?? firstCategory(outline.category)), siteUrl: outline.htmlUrl?.trim() || null});
      }
      if (outline.outlines?.length) walk(outline.outlines, outline.xmlUrl || !label ? folder : folder === null ? label : `${folder}/${label}`);
    }
  };
  walk(outlines, null);
  return entries;
}

/** A folder path as stored: at most MAX_FOLDER_DEPTH folders and CATEGORY_LIMIT characters, cut between folders. */
export function folderPath(path: string | null): string | null {
  if (path === null) return null;
  const parts = path
    .split('/')
    .map((part) => part.trim())
    .filter(Boolean)
    .slice(0, MAX_FOLDER_DEPTH);
  while (parts.length > 1 && parts.join('/').length > CATEGORY_LIMIT) parts.pop();
  const joined = parts.join('/').slice(0, CATEGORY_LIMIT);
  return joined || null;
}

// OPML 2.0 `category` is a comma-separated list of slash-delimited paths: "/Tech/News,/Go" → "Tech/News".
function firstCategory(value: string | undefined): string | null {
  const first = value
    ?.split(',')[0]
    ?.split('/')
    .map((part) => part.trim())
    .filter(Boolean)
    .join('/');
  return first || null;
}
