const SNIFF_BYTES = 1024;
// Text before the markup (a stray line a template printed) is still a page when a document tag follows.
const DOCUMENT_TAG = /<(!doctype\s+html|html|head|body)[\s>]/i;

/**
 * Whether a body labelled text/html is HTML: servers label JSON, plain text and binary as
 * text/html too, and a script inserted into those would corrupt them. Its first kilobyte must hold
 * no NUL byte and start (after a BOM and white space) with markup, or hold a document tag.
 */
export function looksLikeHtml(body: Buffer): boolean {
  const head = body.subarray(0, SNIFF_BYTES);
  if (head.includes(0)) return false;
  const text = head
    .toString('latin1')
    .replace(/^\xef\xbb\xbf/, '')
    .trimStart();
  if (text.startsWith('<')) return true;
  // JSON that quotes markup is still JSON.
  return !/^[[{"]/.test(text) && DOCUMENT_TAG.test(text);
}
