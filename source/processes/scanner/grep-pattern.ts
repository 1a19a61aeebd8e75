/**
 * JavaScript regex source → POSIX extended regex (GNU grep -E), for the subset the rule table
 * uses, so the benchmark can run grep with exactly the scanner's pattern set.
 */

const CLASS_IN_BRACKET: Record<string, string> = {d: '0-9', w: '[:alnum:]_', s: '[:space:]'};
const CLASS_OUTSIDE: Record<string, string> = {d: '[0-9]', D: '[^0-9]', w: '\\w', W: '\\W', s: '[[:space:]]', S: '[^[:space:]]', b: '\\b', B: '\\B'};
// Escapes that mean the same in ERE.
const LITERAL_ESCAPES = new Set(['.', '(', ')', '[', ']', '{', '}', '|', '*', '+', '?', '^', '$', '\\']);

export function toGrepPattern(source: string): string {
  let out = '';
  let i = 0;
  while (i < source.length) {
    const ch = source[i];
    if (ch === '\\') {
      const next = source[i + 1];
      if (next in CLASS_OUTSIDE) out += CLASS_OUTSIDE[next];
      else if (LITERAL_ESCAPES.has(next)) out += `\\${next}`;
      else if (next === '/' || next === '-' || next === "'" || next === '"' || next === '`') out += next;
      else throw new Error(`toGrepPattern: unsupported escape \\${next} in /${source}/`);
      i += 2;
    } else if (ch === '[') {
      const end = readBracket(source, i);
      out += end.ere;
      i = end.next;
    } else if (ch === '(' && source[i + 1] === '?') {
      if (source[i + 2] !== ':') throw new Error(`toGrepPattern: unsupported group (?${source[i + 2]} in /${source}/`);
      out += '(';
      i += 3;
    } else if ((ch === '*' || ch === '+' || ch === '?' || ch === '}') && source[i + 1] === '?') {
      // Laziness changes which text matches, never whether a line matches.
      out += ch;
      i += 2;
    } else {
      out += ch;
      i += 1;
    }
  }
  return out;
}

/** One bracket expression starting at `start`; `]` moves first, where ERE reads it literally. */
function readBracket(source: string, start: number): {ere: string; next: number} {
  let i = start + 1;
  let negate = '';
  if (source[i] === '^') {
    negate = '^';
    i++;
  }
  let body = '';
  let closing = false;
  let dash = false;
  while (i < source.length && source[i] !== ']') {
    const ch = source[i];
    if (ch === '\\') {
      const next = source[i + 1];
      if (next in CLASS_IN_BRACKET) body += CLASS_IN_BRACKET[next];
      else if (next === ']') closing = true;
      else if (next === '-') dash = true;
      else if (next === 'S' || next === 'W' || next === 'D') throw new Error(`toGrepPattern: \\${next} inside brackets in /${source}/`);
      else body += next;
      i += 2;
    } else {
      body += ch;
      i += 1;
    }
  }
  if (i >= source.length) throw new Error(`toGrepPattern: unclosed bracket in /${source}/`);
  return {ere: `[${negate}${closing ? ']' : ''}${body}${dash ? '-' : ''}]`, next: i + 1};
}
