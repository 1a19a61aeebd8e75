const HEAD_OPEN = /<head(?=[\s>/])/gi;
const HEAD_END = /<\/head\s*>|<body(?=[\s>/])/gi;
const SCRIPT_OPEN = /<script(?=[\s>/])/gi;
const BODY_OPEN = /<body(?=[\s>/])/gi;
const DOCUMENT_START = /^(\xef\xbb\xbf)?\s*(<!doctype[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*(<html(?=[\s>])[^>]*>)?/i;

/**
 * Where the page script goes, as a byte offset: before the first script of <head> (so it sees that
 * script's errors), else at the end of <head>, else at the start of <body>, else after the doctype
 * and <html> tag (never before the doctype: that would put the page in quirks mode).
 * The markup is read as latin1, so string offsets are byte offsets whatever the page's charset.
 */
export function insertionOffset(html: string): number {
  HEAD_OPEN.lastIndex = 0;
  const headOpen = HEAD_OPEN.exec(html);
  if (headOpen) {
    const headStart = html.indexOf('>', headOpen.index) + 1 || html.length;
    HEAD_END.lastIndex = headStart;
    const headEnd = HEAD_END.exec(html)?.index ?? html.length;
    SCRIPT_OPEN.lastIndex = headStart;
    const script = SCRIPT_OPEN.exec(html);
    return script && script.index < headEnd ? script.index : headEnd;
  }
  BODY_OPEN.lastIndex = 0;
  const bodyOpen = BODY_OPEN.exec(html);
  if (bodyOpen) return html.indexOf('>', bodyOpen.index) + 1 || html.length;
  return DOCUMENT_START.exec(html)?.[0].length ?? 0;
}

// A page's <head> is near its start: the markup is read this far first, and whole only when the place is not in it.
const FIRST_READ = 64 * 1024;

/** insertionOffset() of a page given as bytes, reading no more of it than it needs. */
export function insertionOffsetIn(body: Buffer): number {
  if (body.length > FIRST_READ) {
    const prefix = body.toString('latin1', 0, FIRST_READ);
    const offset = insertionOffset(prefix);
    if (offset < prefix.length) return offset;
  }
  return insertionOffset(body.toString('latin1'));
}
