/** What a charset label names, once aliases are folded: a TextDecoder label, or a UTF-16/32 family. */
export type CharsetFamily = 'utf-16' | 'utf-32' | 'single';

const UTF8 = new Set(['utf-8', 'utf8', 'unicode-1-1-utf-8', 'x-unicode20utf8', 'unicode20utf8']);
// GB2312 documents routinely use GBK/GB18030 characters; feedparser reports gb18030 for all of them.
const GB = new Set(['gb2312', 'gbk', 'x-gbk', 'csgb2312', 'chinese', 'gb_2312-80', 'gb_2312', 'iso-ir-58', 'csiso58gb231280', 'gb18030']);
const UTF16 = /^(?:utf-?16|utf_16|u16|ucs-?2|iso-10646-ucs-2|unicode|csunicode)(?:[-_]?(le|be))?$/;
const UTF32 = /^(?:utf-?32|utf_32|u32|ucs-?4|iso-10646-ucs-4)(?:[-_]?(le|be))?$/;

const known = new Map<string, string | null>();

export interface Label {
  /** Canonical lowercase name (what sniffCharset reports), e.g. 'utf-8', 'iso-8859-1', 'gb18030'. */
  name: string;
  family: CharsetFamily;
  /** For UTF-16/32 labels that name their byte order. */
  endian?: 'le' | 'be';
}

/** Folds a label from a header or declaration; undefined when no decoder here knows it. */
export function normalizeLabel(raw: string): Label | undefined {
  const label = raw.trim().toLowerCase();
  if (!label) return undefined;
  if (UTF8.has(label)) return {name: 'utf-8', family: 'single'};
  if (GB.has(label)) return {name: 'gb18030', family: 'single'};
  const utf16 = UTF16.exec(label);
  if (utf16) return {name: 'utf-16', family: 'utf-16', endian: utf16[1] as 'le' | 'be' | undefined};
  const utf32 = UTF32.exec(label);
  if (utf32) return {name: 'utf-32', family: 'utf-32', endian: utf32[1] as 'le' | 'be' | undefined};
  const name = decoderLabel(label);
  return name ? {name: label, family: 'single'} : undefined;
}

/** The label TextDecoder accepts for `label` (tried as written, then with `_` as `-`), or null. */
export function decoderLabel(label: string): string | null {
  let found = known.get(label);
  if (found !== undefined) return found;
  found = null;
  for (const candidate of [label, label.replace(/_/g, '-')]) {
    try {
      // 'replacement' is WHATWG's decoder for dangerous legacy labels: it yields one U+FFFD.
      if (new TextDecoder(candidate).encoding !== 'replacement') {
        found = candidate;
        break;
      }
    } catch {
      // Unknown label: try the next spelling.
    }
  }
  known.set(label, found);
  return found;
}
