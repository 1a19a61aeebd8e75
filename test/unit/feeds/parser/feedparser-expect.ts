// Reads feedparser's test annotations (`Expect: not bozo and feed['title'] == u'...'`) into
// comparisons the tests can check against ParsedFeed. Only `path == literal` conjuncts are kept.

export type Literal = string | number | boolean | null | Literal[];

export interface Comparison {
  /** e.g. ['entries', 0, 'title'], ['feed', 'link'], ['len', 'entries'], ['version']. */
  path: Array<string | number>;
  expected: Literal;
  source: string;
}

export interface Annotation {
  description: string;
  header?: string;
  expect: string;
  comparisons: Comparison[];
}

export function readAnnotation(text: string): Annotation | undefined {
  const expect = /Expect:\s*([^\n]*?)\s*(?:-->)?\s*$/m.exec(text)?.[1];
  if (expect === undefined) return undefined;
  const description = /Description:\s*(.*)/.exec(text)?.[1]?.trim() ?? '';
  const header = /Header:\s*(.*)/.exec(text)?.[1]?.trim();
  const comparisons: Comparison[] = [];
  for (const part of splitTopLevel(expect, ' and ')) {
    const eq = findTopLevel(part, '==');
    if (eq === -1) continue;
    const path = readPath(part.slice(0, eq).trim());
    const literal = readLiteral(part.slice(eq + 2).trim());
    if (path && literal !== undefined) comparisons.push({path, expected: literal.value, source: part.trim()});
  }
  return {description, header, expect, comparisons};
}

function splitTopLevel(text: string, separator: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote = '';
  let last = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === '\\') i++;
      else if (text.startsWith(quote, i)) {
        i += quote.length - 1;
        quote = '';
      }
    } else if (c === '"' || c === "'") {
      quote = text.startsWith(c.repeat(3), i) ? c.repeat(3) : c;
      i += quote.length - 1;
    } else if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') depth--;
    else if (depth === 0 && text.startsWith(separator, i)) {
      parts.push(text.slice(last, i));
      last = i + separator.length;
      i = last - 1;
    }
  }
  parts.push(text.slice(last));
  return parts;
}

function findTopLevel(text: string, token: string): number {
  const parts = splitTopLevel(text, token);
  return parts.length === 2 ? parts[0].length : -1;
}

function readPath(text: string): Array<string | number> | undefined {
  const len = /^len\((\w+)\)$/.exec(text);
  if (len) return ['len', len[1]];
  const head = /^(\w+)/.exec(text);
  if (!head) return undefined;
  const path: Array<string | number> = [head[1]];
  let rest = text.slice(head[1].length);
  while (rest) {
    let m = /^\.(\w+)/.exec(rest) ?? /^\[\s*'([^']*)'\s*\]/.exec(rest) ?? /^\[\s*"([^"]*)"\s*\]/.exec(rest);
    if (m) {
      path.push(m[1]);
      rest = rest.slice(m[0].length);
      continue;
    }
    m = /^\[\s*(-?\d+)\s*\]/.exec(rest);
    if (m) {
      path.push(Number(m[1]));
      rest = rest.slice(m[0].length);
      continue;
    }
    return undefined;
  }
  return path;
}

function readLiteral(text: string): {value: Literal} | undefined {
  const result = literalAt(text, 0);
  if (!result || text.slice(result.end).trim() !== '') return undefined;
  return {value: result.value};
}

function literalAt(text: string, from: number): {value: Literal; end: number} | undefined {
  let i = from;
  while (text[i] === ' ') i++;
  const prefix = /^[uUbBrR]{0,2}(?=["'])/.exec(text.slice(i))?.[0] ?? '';
  if (text[i + prefix.length] === '"' || text[i + prefix.length] === "'") {
    const raw = /r/i.test(prefix);
    i += prefix.length;
    const q = text.startsWith(text[i].repeat(3), i) ? text[i].repeat(3) : text[i];
    let j = i + q.length;
    let value = '';
    while (j < text.length && !text.startsWith(q, j)) {
      if (text[j] === '\\' && !raw) {
        const e = text[j + 1];
        const simple: Record<string, string> = {n: '\n', t: '\t', r: '\r', '\\': '\\', "'": "'", '"': '"', '0': '\0'};
        if (e === 'x') {
          value += String.fromCodePoint(parseInt(text.slice(j + 2, j + 4), 16));
          j += 4;
        } else if (e === 'u') {
          value += String.fromCodePoint(parseInt(text.slice(j + 2, j + 6), 16));
          j += 6;
        } else if (e === 'U') {
          value += String.fromCodePoint(parseInt(text.slice(j + 2, j + 10), 16));
          j += 10;
        } else if (e in simple) {
          value += simple[e];
          j += 2;
        } else {
          value += '\\' + e;
          j += 2;
        }
      } else {
        value += text[j++];
      }
    }
    if (j >= text.length) return undefined;
    return {value, end: j + q.length};
  }
  const number = /^-?\d+(?:\.\d+)?/.exec(text.slice(i));
  if (number) return {value: Number(number[0]), end: i + number[0].length};
  const word = /^(True|False|None)\b/.exec(text.slice(i));
  if (word) return {value: word[1] === 'None' ? null : word[1] === 'True', end: i + word[0].length};
  if (text[i] === '(' || text[i] === '[') {
    const close = text[i] === '(' ? ')' : ']';
    const values: Literal[] = [];
    let j = i + 1;
    while (true) {
      while (text[j] === ' ' || text[j] === ',') j++;
      if (text[j] === close) return {value: values, end: j + 1};
      const item = literalAt(text, j);
      if (!item) return undefined;
      values.push(item.value);
      j = item.end;
    }
  }
  return undefined;
}
