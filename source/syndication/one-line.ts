import {xmlChars} from '../feeds/xml-chars.js';

/** Titles, names and categories are one line of text: XML-forbidden characters out, runs of white space one space. */
export function oneLine(text: string): string {
  return xmlChars(text).replace(/\s+/g, ' ').trim();
}
