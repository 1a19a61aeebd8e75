import {XMLValidator} from 'fast-xml-parser';

// XML 1.0's Char production, as raw characters and as character references; fast-xml-parser's
// validator checks the structure but lets these through.
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const REFERENCE = /&#(x[0-9a-f]+|[0-9]+);/gi;

function allowedCode(code: number): boolean {
  if (code === 0x9 || code === 0xa || code === 0xd) return true;
  return (code >= 0x20 && code <= 0xd7ff) || (code >= 0xe000 && code <= 0xfffd) || (code >= 0x10000 && code <= 0x10ffff);
}

/** Fails unless `xml` is a well-formed XML 1.0 document (structure, characters, character references). */
export function wellFormedXml(xml: string): true | string {
  const structure = XMLValidator.validate(xml);
  if (structure !== true) return `${structure.err.code} at line ${structure.err.line}: ${structure.err.msg}`;
  const character = NOT_XML.exec(xml);
  if (character) return `character U+${character[0].charCodeAt(0).toString(16).padStart(4, '0')} at offset ${character.index}`;
  for (const [reference, digits] of xml.matchAll(REFERENCE)) {
    const code = digits!.startsWith('x') || digits!.startsWith('X') ? Number.parseInt(digits!.slice(1), 16) : Number.parseInt(digits!, 10);
    if (!allowedCode(code)) return `character reference ${reference} names a character XML does not allow`;
  }
  return true;
}
