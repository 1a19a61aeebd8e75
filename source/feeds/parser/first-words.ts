import {htmlToLine} from '../../text/html-text.js';

/** A title for an untitled entry: the first words of its text, cut at a word boundary. */
export function firstWords(html: string, maxChars = 80): string {
  const text = htmlToLine(html);
  if (text.length <= maxChars) return text;
  const cut = text.lastIndexOf(' ', maxChars);
  return `${text.slice(0, cut > maxChars / 2 ? cut : maxChars).trimEnd()}…`;
}
