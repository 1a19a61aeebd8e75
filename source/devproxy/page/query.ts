/** Querying the DOM from exec'd code without a console: matches, text search, counts and tree walks. */
import {clip, describe, findAll, limitOf, withElement} from './element.js';
import {failure, primitive} from './primitive.js';

function ownText(element: Element): string {
  let text = '';
  for (const node of Array.from(element.childNodes)) if (node.nodeType === 3) text += node.textContent ?? '';
  return text;
}

export const query = {
  query: primitive('selector, limit?', 'Every match (up to limit, default 20) described, and the total count', (selector: unknown, limit?: unknown) => {
    const elements = findAll(selector);
    if (!Array.isArray(elements)) return elements;
    return {count: elements.length, elements: elements.slice(0, limitOf(limit, 20)).map(describe)};
  }),
  queryText: primitive('text, limit?', 'Elements whose own text contains the given text (case-insensitive), innermost first', (text: unknown, limit?: unknown) => {
    if (typeof text !== 'string' || text === '') return failure('text must be a non-empty string');
    const needle = text.toLowerCase();
    const hits: Element[] = [];
    const walker = document.createTreeWalker(document.body ?? document.documentElement, NodeFilter.SHOW_ELEMENT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const element = node as Element;
      if (/^(SCRIPT|STYLE|NOSCRIPT|TEMPLATE)$/.test(element.tagName)) continue;
      if (ownText(element).toLowerCase().includes(needle)) hits.push(element);
    }
    return {count: hits.length, elements: hits.slice(0, limitOf(limit, 20)).map(describe)};
  }),
  countElements: primitive('selector', 'How many elements match the selector', (selector: unknown) => {
    const elements = findAll(selector);
    return Array.isArray(elements) ? {selector, count: elements.length} : elements;
  }),
  exists: primitive('selector', 'Whether any element matches the selector', (selector: unknown) => {
    const elements = findAll(selector);
    return Array.isArray(elements) ? {selector, exists: elements.length > 0} : elements;
  }),
  walkChildren: primitive('selector, depth?', 'The subtree under the first match as nested tag/id/class nodes (depth default 2, at most 6)', (selector: unknown, depth?: unknown) =>
    withElement(selector, (element) => {
      const maxDepth = limitOf(depth, 2, 6);
      let budget = 300;
      interface Node {
        tag: string;
        id?: string;
        classes?: string[];
        text?: string;
        children?: Node[];
        more?: number;
      }
      const walk = (node: Element, level: number): Node => {
        budget--;
        const out: Node = {tag: node.tagName.toLowerCase()};
        if (node.id) out.id = node.id;
        if (node.classList.length > 0) out.classes = Array.from(node.classList).slice(0, 6);
        const own = clip(ownText(node), 40);
        if (own) out.text = own;
        const children = Array.from(node.children);
        if (children.length > 0) {
          if (level >= maxDepth || budget <= 0) out.more = children.length;
          else {
            out.children = [];
            for (const child of children) {
              if (budget <= 0) {
                out.more = children.length - out.children.length;
                break;
              }
              out.children.push(walk(child, level + 1));
            }
          }
        }
        return out;
      };
      return walk(element, 0);
    }),
  ),
  walkParents: primitive('selector', 'The ancestors of the first match, nearest first, each described', (selector: unknown) =>
    withElement(selector, (element) => {
      const parents = [];
      for (let node = element.parentElement; node && parents.length < 50; node = node.parentElement) parents.push(describe(node));
      return {parents};
    }),
  ),
  findAncestor: primitive(
    'selector, ancestorSelector',
    'The nearest ancestor of the first match that matches ancestorSelector, or null',
    (selector: unknown, ancestorSelector: unknown) =>
      withElement(selector, (element) => {
        // Validates the second selector the same way as the first (a string, well formed).
        const check = findAll(ancestorSelector);
        if (!Array.isArray(check)) return check;
        const ancestor = element.parentElement?.closest(ancestorSelector as string) ?? null;
        return {ancestor: ancestor ? describe(ancestor) : null};
      }),
  ),
};
