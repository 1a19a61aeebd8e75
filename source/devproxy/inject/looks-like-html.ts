const SNIFF_BYTES = 1024;
const HTML_START = /<(!doctype\s+html|html|head|body|!--|meta|title|script|link|div|p|h1)[\s>/]/i;

/**
 * Whether a body labelled text/html is HTML: servers label JSON, plain text and binary as
 * text/html too, and a script inserted into those would corrupt them. Its first kilobyte must hold
 * no NUL byte and start (after a BOM and white space) with markup.
 */
export function looksLikeHtml(body: Buffer): boolean {
  const head = body.subarray(0, SNIFF_BYTES);
  if (head.includes(0)) return false;
  const text = head
    .toString('latin1')
    .replace(/^\xef\xbb\xbf/, '')
    .trimStart();
  if (text.startsWith('<')) return true;
  return HTML_START.test(text);
}
