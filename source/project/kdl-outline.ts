/**
 * A light pass over KDL source that kdljs does not give us: the line of every node (kdljs output
 * carries no positions), the first structural problem with a line we can name (unclosed string,
 * brace or comment), and KDL 1 keywords (`true`, `false`, `null`) rewritten to KDL 2 (`#true`)
 * because the spec writes `autostart true` while kdljs 0.3 only reads KDL 2.
 */

export interface OutlineNode {
  /** The node name as written when it is a bare word or a plain quoted string; '' otherwise. */
  name: string;
  line: number;
  children: OutlineNode[];
}

export interface KdlProblem {
  line: number;
  message: string;
}

export interface KdlOutline {
  /** The source with KDL 1 keywords in value position rewritten; same lines as the input. */
  text: string;
  nodes: OutlineNode[];
  problem?: KdlProblem;
}

interface Frame {
  /** Where nodes inside this block go; null when the block is slashdashed away. */
  children: OutlineNode[] | null;
  line: number;
  owner: OutlineNode | null;
  ownerDropped: boolean;
}

const KDL1_KEYWORDS = new Set(['true', 'false', 'null']);
// Characters that end a bare word (identifier or number) in KDL.
const WORD_END = /[\s(){}[\]\\/;="]/;

export function outlineKdl(source: string): KdlOutline {
  const out: string[] = [];
  const nodes: OutlineNode[] = [];
  const stack: Frame[] = [];
  let line = 1;
  let i = 0;
  let copied = 0;
  let atNodeStart = true;
  let continued = false; // a `\` line continuation is pending
  let slashdash = false;
  let current: OutlineNode | null = null;
  let currentDropped = false;

  const target = (): OutlineNode[] | null => (stack.length === 0 ? nodes : stack[stack.length - 1]!.children);
  const fail = (at: number, message: string): KdlOutline => ({text: source, nodes, problem: {line: at, message}});

  // A value or name token begins at i: a node starts here when we are at a statement start.
  const beginToken = (name: string): void => {
    if (atNodeStart) {
      const into = target();
      current = {name, line, children: []};
      currentDropped = slashdash || into === null;
      if (!currentDropped) into!.push(current);
      atNodeStart = false;
    }
    slashdash = false;
  };

  while (i < source.length) {
    const ch = source[i]!;
    const next = source[i + 1];

    if (ch === '\n') {
      line++;
      i++;
      if (continued) continued = false;
      else atNodeStart = true;
      continue;
    }
    if (ch === ' ' || ch === '\t' || ch === '\r' || ch === '\uFEFF') {
      i++;
      continue;
    }
    if (ch === '/' && next === '/') {
      while (i < source.length && source[i] !== '\n') i++;
      continue;
    }
    if (ch === '/' && next === '*') {
      const opened = line;
      let depth = 0;
      while (i < source.length) {
        if (source[i] === '/' && source[i + 1] === '*') {
          depth++;
          i += 2;
        } else if (source[i] === '*' && source[i + 1] === '/') {
          depth--;
          i += 2;
          if (depth === 0) break;
        } else {
          if (source[i] === '\n') line++;
          i++;
        }
      }
      if (depth > 0) return fail(opened, 'comment /* is never closed (missing */)');
      continue;
    }
    if (ch === '/' && next === '-') {
      slashdash = true;
      i += 2;
      continue;
    }
    if (ch === '\\') {
      continued = true;
      i++;
      continue;
    }
    if (ch === ';') {
      atNodeStart = true;
      i++;
      continue;
    }
    if (ch === '{') {
      if (atNodeStart) return fail(line, 'a { block needs a node name before it on the same line');
      stack.push({children: slashdash || currentDropped ? null : current!.children, line, owner: current, ownerDropped: currentDropped});
      slashdash = false;
      atNodeStart = true;
      current = null;
      i++;
      continue;
    }
    if (ch === '}') {
      if (stack.length === 0) return fail(line, 'unexpected } (no block is open here)');
      // Back in the node that owns the block: only a terminator (or a slashdashed block) may follow.
      const frame = stack.pop()!;
      current = frame.owner;
      currentDropped = frame.ownerDropped;
      atNodeStart = false;
      i++;
      continue;
    }
    if (ch === '(') {
      // A type annotation belongs to the node or value after it; at a statement start it opens the node.
      if (atNodeStart) beginToken('');
      const close = source.indexOf(')', i);
      i = close === -1 ? source.length : close + 1;
      continue;
    }
    if (ch === '"') {
      const opened = line;
      const start = i;
      if (source.startsWith('"""', i)) {
        const close = source.indexOf('"""', i + 3);
        if (close === -1) return fail(opened, 'multi-line string """ is never closed');
        line += countNewlines(source, i, close);
        i = close + 3;
      } else {
        i++;
        let closed = false;
        while (i < source.length) {
          const c = source[i]!;
          if (c === '\\') {
            // An escape; `\` before whitespace joins lines, which may hold newlines.
            if (/\s/.test(source[i + 1] ?? '')) {
              i++;
              while (i < source.length && /\s/.test(source[i]!)) {
                if (source[i] === '\n') line++;
                i++;
              }
            } else {
              i += 2;
            }
            continue;
          }
          if (c === '\n') break;
          if (c === '"') {
            closed = true;
            i++;
            break;
          }
          i++;
        }
        if (!closed) return fail(opened, 'string is not closed (missing " before the end of the line)');
      }
      beginToken(plainString(source.slice(start, i)));
      continue;
    }
    if (ch === '#') {
      const raw = source.slice(i).match(/^(#+)(""")?"?/);
      if (raw && raw[0].endsWith('"')) {
        const opened = line;
        const hashes = raw[1]!;
        const closing = (raw[2] ? '"""' : '"') + hashes;
        const close = source.indexOf(closing, i + raw[0].length);
        if (close === -1) return fail(opened, `raw string ${hashes}" is never closed (missing "${hashes})`);
        line += countNewlines(source, i, close);
        i = close + closing.length;
        beginToken('');
        continue;
      }
    }

    // A bare word: identifier, number or #keyword.
    const start = i;
    while (i < source.length && !WORD_END.test(source[i]!)) i++;
    if (i === start) i++; // a lone `[`, `]` or `=`: kdljs reports it
    const word = source.slice(start, i);
    const valuePosition = !atNodeStart && source[i] !== '=';
    if (valuePosition && KDL1_KEYWORDS.has(word)) {
      out.push(source.slice(copied, start), '#');
      copied = start;
    }
    if (word !== '=') beginToken(word);
  }

  out.push(source.slice(copied));
  const text = out.join('');
  if (stack.length > 0) {
    const open = stack[stack.length - 1]!;
    return {text, nodes, problem: {line: open.line, message: 'block { opened here is never closed (missing })'}};
  }
  return {text, nodes};
}

function countNewlines(source: string, from: number, to: number): number {
  let n = 0;
  for (let k = from; k < to; k++) if (source[k] === '\n') n++;
  return n;
}

// Only strings without escapes are compared by name; others still keep their line.
function plainString(token: string): string {
  if (token.startsWith('"""') || token.includes('\\')) return '';
  return token.slice(1, -1);
}
