/**
 * Just enough TOML for script tables: the `key = value` lines of named `[sections]`. Keys may be
 * bare or quoted, values basic or literal strings (inline tables and arrays are kept as text).
 * Not a TOML parser, and deliberately so: script tables are flat and no dependency is needed.
 */
export type TomlSections = Map<string, Map<string, string>>;

const HEADER = /^\[\s*([^\[\]]+?)\s*\](?:\s*#.*)?$/;

export function tomlSections(text: string): TomlSections {
  const sections: TomlSections = new Map();
  let current: Map<string, string> | null = null;
  let multiline: string | null = null; // the closing delimiter of a multi-line string being skipped

  for (const raw of text.split(/\r?\n/)) {
    if (multiline) {
      if (raw.includes(multiline)) multiline = null;
      continue;
    }
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    if (line.startsWith('[[')) {
      current = null; // arrays of tables hold no scripts
      continue;
    }
    const header = HEADER.exec(line);
    if (header) {
      const name = splitDotted(header[1]!).join('.');
      current = sections.get(name) ?? new Map();
      sections.set(name, current);
      continue;
    }
    const entry = readKey(line);
    if (!entry || !entry.assigned) continue; // dotted keys (`a.b = 1`) never name a script
    const value = entry.rest.trimStart();
    const opener = value.startsWith('"""') ? '"""' : value.startsWith("'''") ? "'''" : null;
    if (opener && !value.slice(3).includes(opener)) multiline = opener;
    current?.set(entry.key, readValue(value));
  }
  return sections;
}

// `"a.b".c` → ['a.b', 'c']
function splitDotted(name: string): string[] {
  const parts: string[] = [];
  let rest = name.trim();
  while (rest.length > 0) {
    const key = readKey(`${rest} =`);
    if (!key) return [name];
    parts.push(key.key);
    rest = key.rest.replace(/=\s*$/, '').trim();
    if (rest.startsWith('.')) rest = rest.slice(1).trim();
    else break;
  }
  return parts;
}

/** A key (bare, "basic" or 'literal') and what follows its `=`. */
function readKey(line: string): {key: string; rest: string; assigned: boolean} | null {
  let key: string;
  let after: string;
  if (line.startsWith('"') || line.startsWith("'")) {
    const string = readString(line);
    if (!string) return null;
    key = string.value;
    after = line.slice(string.length);
  } else {
    const bare = /^[A-Za-z0-9_-]+/.exec(line);
    if (!bare) return null;
    key = bare[0];
    after = line.slice(bare[0].length);
  }
  const equals = /^\s*=/.exec(after);
  if (!equals) return after.trimStart().startsWith('.') ? {key, rest: after, assigned: false} : null;
  return {key, rest: after.slice(equals[0].length), assigned: true};
}

function readValue(value: string): string {
  if (value.startsWith('"') || value.startsWith("'")) return readString(value)?.value ?? value;
  return value.replace(/\s+#.*$/, '').trim();
}

const ESCAPES: Record<string, string> = {n: '\n', t: '\t', r: '\r', '"': '"', '\\': '\\', b: '\b', f: '\f'};

function readString(text: string): {value: string; length: number} | null {
  const quote = text[0]!;
  if (text.startsWith(quote.repeat(3))) {
    const end = text.indexOf(quote.repeat(3), 3);
    return end === -1 ? {value: text.slice(3), length: text.length} : {value: text.slice(3, end), length: end + 3};
  }
  let value = '';
  for (let i = 1; i < text.length; i++) {
    const c = text[i]!;
    if (c === quote) return {value, length: i + 1};
    if (quote === '"' && c === '\\') {
      const next = text[i + 1] ?? '';
      if (next === 'u' || next === 'U') {
        const size = next === 'u' ? 4 : 8;
        value += String.fromCodePoint(parseInt(text.slice(i + 2, i + 2 + size), 16) || 0xfffd);
        i += 1 + size;
      } else {
        value += ESCAPES[next] ?? next;
        i++;
      }
      continue;
    }
    value += c;
  }
  return null;
}
