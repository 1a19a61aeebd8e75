import {decodeEntities} from '../../text/entities.js';
import {internalEntities, type ExpandEntities} from './internal-entities.js';
import {namespaceId} from './namespaces.js';

type Scope = Record<string, string>;

/** One element. Names are lowercased: feeds in the wild do not agree on case (CDF is all caps). */
export interface XmlNode {
  /** Qualified name as written, lowercased: 'dc:creator'. */
  name: string;
  /** Local part: 'creator'. */
  local: string;
  /** Namespace id from namespaces.ts ('atom', 'dc', ...); '' for none and for RSS's own. */
  ns: string;
  /** Attributes by lowercased qualified name, references resolved. */
  attrs: Record<string, string> | undefined;
  children: XmlNode[];
  /** Direct text with references resolved; CDATA verbatim. */
  text: string;
  /** Inner source range: after the start tag, up to the end tag (or where the document ends). */
  start: number;
  end: number;
  scope: Scope;
}

export interface XmlDocument {
  source: string;
  /** The first element; undefined when the text has none. */
  root: XmlNode | undefined;
  /** Set when `acceptRoot` refused the root: scanning stopped there. */
  refused?: boolean;
  /** The DOCTYPE's safe internal entities (internal-entities.ts), when it declares any. */
  expand?: ExpandEntities;
}

const ROOT_SCOPE: Scope = Object.assign(Object.create(null) as Scope, {xml: 'xml'});

/**
 * A forgiving XML scanner for feeds: it never throws. Unclosed and mismatched tags close at the
 * nearest matching ancestor, a truncated document ends where it ends, a `<` that starts no tag
 * is text, and the DOCTYPE is skipped but for the internal entities internal-entities.ts takes
 * (plain text, bounded; never nested nor external). `acceptRoot` sees the first element before anything else is built (garbage and HTML
 * pages stop there).
 */
export function parseXmlTree(source: string, acceptRoot?: (root: XmlNode) => boolean): XmlDocument {
  const n = source.length;
  const document = makeNode('', '', '', undefined, 0, ROOT_SCOPE);
  const stack: XmlNode[] = [document];
  let top = document;
  const open = new Map<string, number>();
  let root: XmlNode | undefined;
  let expand: ExpandEntities | undefined;
  let doctypes = 0;
  let i = 0;
  while (i < n) {
    const lt = source.indexOf('<', i);
    if (lt === -1) {
      addText(top, source, i, n, expand);
      break;
    }
    if (lt > i) addText(top, source, i, lt, expand);
    const c = source.charCodeAt(lt + 1);
    if (c === 47 /* / */) {
      const gt = source.indexOf('>', lt + 2);
      const name = source
        .slice(lt + 2, gt === -1 ? n : gt)
        .trim()
        .toLowerCase();
      i = gt === -1 ? n : gt + 1;
      // Counting open names keeps a flood of stray end tags linear: no search when none is open.
      if (open.get(name)) {
        for (let k = stack.length - 1; k > 0; k--) {
          const node = stack[k];
          node.end = lt;
          open.set(node.name, open.get(node.name)! - 1);
          if (node.name !== name) continue;
          stack.length = k;
          top = stack[k - 1];
          break;
        }
      }
    } else if (c === 33 /* ! */) {
      if (source.startsWith('<!--', lt)) {
        const end = source.indexOf('-->', lt + 4);
        i = end === -1 ? n : end + 3;
      } else if (source.startsWith('<![CDATA[', lt)) {
        const end = source.indexOf(']]>', lt + 9);
        top.text += source.slice(lt + 9, end === -1 ? n : end);
        i = end === -1 ? n : end + 3;
      } else if (/^<!doctype/i.test(source.slice(lt, lt + 9))) {
        i = skipDoctype(source, lt + 9);
        // Only a single DOCTYPE before the root declares anything (feedparser drops the subsets of two).
        if (!root) expand = ++doctypes === 1 ? internalEntities(source.slice(lt + 9, i)) : undefined;
      } else {
        const gt = source.indexOf('>', lt + 2);
        i = gt === -1 ? n : gt + 1;
      }
    } else if (c === 63 /* ? */) {
      const end = source.indexOf('?>', lt + 2);
      i = end === -1 ? n : end + 2;
    } else if (isNameStart(c)) {
      let j = lt + 1;
      while (j < n) {
        const d = source.charCodeAt(j);
        if (d <= 32 || d === 47 || d === 62) break;
        j++;
      }
      const name = source.slice(lt + 1, j).toLowerCase();
      let attrs: Record<string, string> | undefined;
      let selfClosing = false;
      // Attributes, up to the end of the start tag.
      while (true) {
        while (j < n && source.charCodeAt(j) <= 32) j++;
        if (j >= n) break;
        const d = source.charCodeAt(j);
        if (d === 62 /* > */) {
          j++;
          break;
        }
        if (d === 47 /* / */) {
          j++;
          if (source.charCodeAt(j) === 62) {
            selfClosing = true;
            j++;
            break;
          }
          continue;
        }
        const nameStart = j;
        while (j < n) {
          const e = source.charCodeAt(j);
          if (e <= 32 || e === 61 || e === 62 || e === 47) break;
          j++;
        }
        if (j === nameStart) {
          j++; // a stray '=' or quote: skip it
          continue;
        }
        const attrName = source.slice(nameStart, j).toLowerCase();
        let k = j;
        while (k < n && source.charCodeAt(k) <= 32) k++;
        let value = '';
        if (source.charCodeAt(k) === 61 /* = */) {
          k++;
          while (k < n && source.charCodeAt(k) <= 32) k++;
          const q = source.charCodeAt(k);
          if (q === 34 || q === 39) {
            const close = source.indexOf(q === 34 ? '"' : "'", k + 1);
            value = source.slice(k + 1, close === -1 ? n : close);
            j = close === -1 ? n : close + 1;
          } else {
            let e = k;
            while (e < n && source.charCodeAt(e) > 32 && source.charCodeAt(e) !== 62) e++;
            value = source.slice(k, e);
            j = e;
          }
        }
        (attrs ??= Object.create(null) as Record<string, string>)[attrName] = value.indexOf('&') === -1 ? value : decodeEntities(expand ? expand(value) : value);
      }
      let scope = top.scope;
      if (attrs) {
        for (const key in attrs) {
          if (key !== 'xmlns' && !key.startsWith('xmlns:')) continue;
          if (scope === top.scope) scope = Object.create(scope) as Scope;
          scope[key === 'xmlns' ? '' : key.slice(6)] = namespaceId(attrs[key]);
        }
      }
      const colon = name.indexOf(':');
      const local = colon === -1 ? name : name.slice(colon + 1);
      const ns = colon === -1 ? (scope[''] ?? '') : (scope[name.slice(0, colon)] ?? name.slice(0, colon));
      const node = makeNode(name, local, ns, attrs, Math.min(j, n), scope);
      top.children.push(node);
      if (!root) {
        root = node;
        if (acceptRoot && !acceptRoot(node)) return {source, root, refused: true, expand};
      }
      if (selfClosing) {
        node.end = node.start;
      } else {
        stack.push(node);
        open.set(name, (open.get(name) ?? 0) + 1);
        top = node;
      }
      i = j;
    } else {
      // A '<' that opens nothing ("a < b" in a broken feed) is text.
      top.text += '<';
      i = lt + 1;
    }
  }
  for (let k = stack.length - 1; k > 0; k--) if (stack[k].end < 0) stack[k].end = n;
  return expand ? {source, root, expand} : {source, root};
}

/** The source between an element's tags: markup and references as written. */
export function innerXml(doc: XmlDocument, node: XmlNode): string {
  const markup = doc.source.slice(node.start, node.end);
  return doc.expand ? doc.expand(markup) : markup;
}

function makeNode(name: string, local: string, ns: string, attrs: Record<string, string> | undefined, start: number, scope: Scope): XmlNode {
  return {name, local, ns, attrs, children: [], text: '', start, end: -1, scope};
}

function addText(node: XmlNode, source: string, from: number, to: number, expand: ExpandEntities | undefined): void {
  // Whitespace between elements is never a value: skip it without slicing.
  let k = from;
  while (k < to && source.charCodeAt(k) <= 32) k++;
  if (k === to) {
    if (node.text !== '') node.text += source.slice(from, to);
    return;
  }
  const piece = source.slice(from, to);
  node.text += piece.indexOf('&') === -1 ? piece : decodeEntities(expand ? expand(piece) : piece);
}

function isNameStart(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || c === 58 || c >= 128;
}

/** Past a DOCTYPE and its internal subset; quotes, brackets and comments inside are respected. */
function skipDoctype(source: string, from: number): number {
  const n = source.length;
  let depth = 0;
  let quote = 0;
  for (let j = from; j < n; j++) {
    const c = source.charCodeAt(j);
    if (quote) {
      if (c === quote) quote = 0;
    } else if (c === 34 || c === 39) {
      quote = c;
    } else if (c === 91 /* [ */) {
      depth++;
    } else if (c === 93 /* ] */) {
      depth--;
    } else if (c === 60 /* < */ && depth > 0 && source.startsWith('<!--', j)) {
      const end = source.indexOf('-->', j + 4);
      if (end === -1) return n;
      j = end + 2;
    } else if (c === 62 /* > */ && depth <= 0) {
      return j + 1;
    }
  }
  return n;
}
