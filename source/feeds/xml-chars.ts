/**
 * Characters XML 1.0 does not allow in a document (C0 controls but tab, LF and CR; U+FFFE,
 * U+FFFF; a surrogate half without its pair), and the C1 controls it discourages (the W3C feed
 * validator flags them). One of them in a title (U+0001 from a feed) makes a whole list RSS or
 * OPML export unreadable to a strict parser, so every string written into them passes here.
 */
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u0084\u0086-\u009F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** `text` without the characters an XML document may not (or should not) carry. */
export function xmlChars(text: string): string {
  return text.replace(NOT_XML, '');
}

/** The same over an optional value. */
export function xmlCharsOrUndefined(text: string | null | undefined): string | undefined {
  return text === null || text === undefined ? undefined : xmlChars(text);
}
