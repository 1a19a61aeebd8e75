import {isAscii, isUtf8} from 'node:buffer';
import {normalizeLabel, type Label} from './charset-label.js';
import {isTextXml, parseContentType} from './content-type.js';

/** Where the charset came from, for `workbench feeds parse` and tests. */
export type CharsetSource = 'bom' | 'pattern' | 'header' | 'rfc3023' | 'declaration' | 'meta' | 'utf8-valid' | 'default' | 'fallback';

export interface CharsetGuess {
  /** Lowercase name: 'utf-8', 'utf-16le', 'utf-32be', 'iso-8859-1', 'us-ascii', 'gb18030', ... */
  charset: string;
  source: CharsetSource;
}

// The XML declaration and HTML prescan look at the first KB, as browsers do.
const PRESCAN = 1024;

/**
 * Decides a body's charset: BOM, then a UTF-16/32 byte pattern, then the Content-Type charset,
 * then the XML declaration (or <meta charset> in HTML), then UTF-8. Two corrections from
 * Miniflux's experience: a body that is valid UTF-8 is UTF-8 whatever its labels claim (servers
 * and CMSs mislabel), and one that is mostly invalid UTF-8 without a usable label is windows-1252.
 */
export function sniffCharset(body: Uint8Array, contentType: string | null): CharsetGuess {
  return sniff(body, contentType).guess;
}

export interface Sniffed {
  guess: CharsetGuess;
  /** Set when sniffing already had to decode (the UTF-8 validity vote). */
  text?: string;
  /** Every byte below 0x80 (so no decoding fix-ups are needed). */
  ascii?: boolean;
}

export function sniff(body: Uint8Array, contentType: string | null): Sniffed {
  const unicode = byteOrder(body);
  if (unicode) return {guess: unicode};

  const header = parseContentType(contentType);
  const ascii = isAscii(body);
  let label: Label | undefined;
  let source: CharsetSource = 'default';
  if (header.charset) {
    label = normalizeLabel(header.charset);
    source = 'header';
  }
  if (!label && !header.charset && isTextXml(header.mediaType) && ascii) return {guess: {charset: 'us-ascii', source: 'rfc3023'}, ascii};
  if (!label) {
    const head = Buffer.from(body.buffer, body.byteOffset, Math.min(body.length, PRESCAN)).toString('latin1');
    const declared = /<\?xml\s[^>]*?encoding\s*=\s*["']\s*([^"'\s]+)\s*["']/i.exec(head);
    if (declared) {
      label = normalizeLabel(declared[1]);
      source = 'declaration';
    } else {
      const meta = /<meta\s[^>]*?charset\s*=\s*["']?\s*([A-Za-z0-9._:+-]+)/i.exec(head);
      if (meta) {
        label = normalizeLabel(meta[1]);
        source = 'meta';
      }
    }
  }
  // A UTF-16/32 label on a body whose declaration we just read as ASCII is wrong.
  if (label && label.family !== 'single') label = undefined;

  if (ascii) return {guess: label ? {charset: label.name, source} : {charset: 'utf-8', source: 'default'}, ascii};
  if (isUtf8(body)) return {guess: {charset: 'utf-8', source: label && label.name !== 'utf-8' ? 'utf8-valid' : label ? source : 'default'}};
  if (label && label.name !== 'utf-8' && label.name !== 'us-ascii') return {guess: {charset: label.name, source}};

  // Invalid UTF-8 and no other usable label: keep UTF-8 when the damage is a few stray bytes,
  // read it as windows-1252 when invalid sequences outnumber the valid multi-byte characters.
  const text = new TextDecoder('utf-8').decode(body);
  let replaced = 0;
  let wide = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) continue;
    if (c === 0xfffd) replaced++;
    else wide++;
  }
  if (replaced > wide) return {guess: {charset: 'windows-1252', source: 'fallback'}};
  return {guess: {charset: 'utf-8', source: label ? source : 'default'}, text};
}

/** BOM, or the byte pattern of `<` / any ASCII character in UTF-16 or UTF-32 (XML 1.0, appendix F). */
function byteOrder(b: Uint8Array): CharsetGuess | undefined {
  if (b.length >= 3 && b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) return {charset: 'utf-8', source: 'bom'};
  if (b.length >= 4 && b[0] === 0xff && b[1] === 0xfe && b[2] === 0 && b[3] === 0) return {charset: 'utf-32le', source: 'bom'};
  if (b.length >= 4 && b[0] === 0 && b[1] === 0 && b[2] === 0xfe && b[3] === 0xff) return {charset: 'utf-32be', source: 'bom'};
  if (b.length >= 2 && b[0] === 0xff && b[1] === 0xfe) return {charset: 'utf-16le', source: 'bom'};
  if (b.length >= 2 && b[0] === 0xfe && b[1] === 0xff) return {charset: 'utf-16be', source: 'bom'};
  if (b.length < 4) return undefined;
  if (b[0] === 0 && b[1] === 0 && b[2] === 0 && b[3] !== 0) return {charset: 'utf-32be', source: 'pattern'};
  if (b[0] !== 0 && b[1] === 0 && b[2] === 0 && b[3] === 0) return {charset: 'utf-32le', source: 'pattern'};
  if (b[0] === 0 && b[1] !== 0 && b[2] === 0 && b[3] !== 0) return {charset: 'utf-16be', source: 'pattern'};
  if (b[0] !== 0 && b[1] === 0 && b[2] !== 0 && b[3] === 0) return {charset: 'utf-16le', source: 'pattern'};
  return undefined;
}
