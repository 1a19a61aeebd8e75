import {decoderLabel} from './charset-label.js';
import {sniff} from './sniff-charset.js';

/**
 * A feed body as text: charset from the BOM, the Content-Type header, the XML declaration or
 * <meta charset>, else UTF-8 (windows-1252 when UTF-8 does not fit). Never throws: unknown
 * labels and broken bytes give replacement characters, not errors.
 */
export function decodeFeedBody(body: Buffer | Uint8Array, contentType: string | null): string {
  const {guess, text, ascii} = sniff(body, contentType);
  if (ascii) return asBuffer(body).toString('latin1');
  const decoded = text ?? decodeAs(body, guess.charset);
  // In UTF-8, U+0080–U+009F can only come from C2 80–C2 9F: look at the bytes, not the string.
  if (guess.charset === 'utf-8' && !hasUtf8C1(asBuffer(body))) return decoded;
  return fixC1(decoded);
}

/** Decodes bytes in a charset sniffCharset named; the BOM, when present, is dropped. */
export function decodeAs(body: Uint8Array, charset: string): string {
  if (charset === 'utf-32le' || charset === 'utf-32be') return decodeUtf32(body, charset === 'utf-32le');
  if (charset === 'utf-8' || charset === 'us-ascii') return withoutBom(UTF8.decode(body));
  const label = decoderLabel(charset) ?? 'utf-8';
  // Node 20's TextDecoder reads windows-1252 (and its aliases latin1, iso-8859-1) as ISO-8859-1:
  // decode Latin-1, then map 0x80–0x9F to windows-1252 here.
  if (new TextDecoder(label).encoding === 'windows-1252') return fixC1(asBuffer(body).toString('latin1'));
  return new TextDecoder(label).decode(body);
}

// Faster than Buffer#toString for UTF-8 on Node 20; keeps the BOM (ignoreBOM) so both paths agree.
const UTF8 = new TextDecoder('utf-8', {ignoreBOM: true});

function hasUtf8C1(body: Buffer): boolean {
  for (let at = body.indexOf(0xc2); at !== -1 && at + 1 < body.length; at = body.indexOf(0xc2, at + 1)) {
    if (body[at + 1] >= 0x80 && body[at + 1] <= 0x9f) return true;
  }
  return false;
}

function asBuffer(body: Uint8Array): Buffer {
  return Buffer.isBuffer(body) ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
}

function withoutBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

// TextDecoder has no UTF-32 (WHATWG dropped it); feeds in it are rare but exist.
function decodeUtf32(body: Uint8Array, littleEndian: boolean): string {
  const view = new DataView(body.buffer, body.byteOffset, body.byteLength);
  let out = '';
  const codes: number[] = [];
  for (let i = 0; i + 3 < body.length; i += 4) {
    const code = view.getUint32(i, littleEndian);
    if (i === 0 && code === 0xfeff) continue;
    codes.push(code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff) ? 0xfffd : code);
    if (codes.length === 4096) {
      out += String.fromCodePoint(...codes);
      codes.length = 0;
    }
  }
  return out + String.fromCodePoint(...codes);
}

// windows-1252 at 0x80–0x9F (WHATWG's index; the five undefined bytes map to themselves).
const C1 = String.fromCharCode(
  ...[0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152, 0x8d, 0x17d, 0x8f],
  ...[0x90, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x2dc, 0x2122, 0x161, 0x203a, 0x153, 0x9d, 0x17e, 0x178],
);

/** U+0080–U+009F are never meant in feeds: they are windows-1252 punctuation stored as Latin-1. */
export function c1AsWindows1252(code: number): string {
  return C1[code - 0x80];
}

export function fixC1(text: string): string {
  if (!/[\u0080-\u009f]/.test(text)) return text;
  return text.replace(/[\u0080-\u009f]/g, (c) => c1AsWindows1252(c.charCodeAt(0)));
}
