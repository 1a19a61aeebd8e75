import {htmlToText, type HtmlToTextOptions} from 'html-to-text';

/**
 * An article laid out for reading in a terminal (html-to-text: paragraphs, lists, tables,
 * wrapping); one line of text from HTML is html-text.ts. Neither output is safe for a terminal
 * yet: references such as `&#27;` decode to controls (see terminal-safe.ts).
 */

// Links keep their target after the text (the reader has no mouse); images become a marker.
const baseOptions: HtmlToTextOptions = {
  selectors: [
    {selector: 'a', options: {hideLinkIfSameAsText: true, ignoreHref: false, noAnchorUrl: true, linkBrackets: ['<', '>']}},
    {selector: 'img', format: 'imageMarker'},
    {selector: 'h1', options: {uppercase: false}},
    {selector: 'h2', options: {uppercase: false}},
    {selector: 'h3', options: {uppercase: false}},
    {selector: 'table', format: 'dataTable'},
  ],
  formatters: {
    imageMarker(element, _walk, builder) {
      const alt = (element.attribs?.alt ?? '').trim();
      builder.addInline(alt ? `[image: ${alt}]` : '[image]');
    },
  },
};

/** Plain text of an article's HTML, wrapped at `width` columns (a terminal reader's view). */
export function htmlToPage(html: string, width = 80): string {
  const text = htmlToText(html, {...baseOptions, wordwrap: Math.max(20, width)});
  return text.replace(/\n{3,}/g, '\n\n').trim();
}
