/**
 * DOM snapshots as plain trees, and the diff of two: what appeared, went away or changed between
 * "before" and "after" an action. Snapshots can be kept in the page by name so an agent needs no
 * round trip of the whole tree.
 */
import {clip, find} from './element.js';
import {failure, primitive} from './primitive.js';

export interface SnapshotNode {
  tag: string;
  attrs?: Record<string, string>;
  text?: string;
  children?: SnapshotNode[];
}

export interface DomSnapshot {
  url: string;
  root: string;
  takenAt: number;
  nodes: number;
  truncated: boolean;
  tree: SnapshotNode;
}

const KEPT_ATTRIBUTES = /^(id|class|role|name|type|href|src|alt|for|value|placeholder|disabled|checked|hidden|title|aria-.*|data-testid)$/;
const MAX_KEPT = 10;
const kept = new Map<string, DomSnapshot>();

function take(rootSelector: string, maxNodes: number): DomSnapshot | {error: string} {
  const root = find(rootSelector);
  if (!(root instanceof Element)) return root;
  let nodes = 0;
  let truncated = false;
  const walk = (element: Element): SnapshotNode => {
    nodes++;
    const node: SnapshotNode = {tag: element.tagName.toLowerCase()};
    const attrs: Record<string, string> = {};
    for (const attribute of Array.from(element.attributes)) if (KEPT_ATTRIBUTES.test(attribute.name)) attrs[attribute.name] = clip(attribute.value, 120);
    if (element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement || element instanceof HTMLSelectElement) attrs.value = clip(element.value, 120);
    if (Object.keys(attrs).length > 0) node.attrs = attrs;
    let text = '';
    for (const child of Array.from(element.childNodes)) if (child.nodeType === 3) text += child.textContent;
    const own = clip(text, 120);
    if (own) node.text = own;
    const children: SnapshotNode[] = [];
    for (const child of Array.from(element.children)) {
      if (/^(SCRIPT|STYLE|NOSCRIPT|TEMPLATE)$/.test(child.tagName) || child.hasAttribute('data-workbench-overlay')) continue;
      if (nodes >= maxNodes) {
        truncated = true;
        break;
      }
      children.push(walk(child));
    }
    if (children.length > 0) node.children = children;
    return node;
  };
  const tree = walk(root);
  return {url: location.href, root: rootSelector, takenAt: Date.now(), nodes, truncated, tree};
}

interface Change {
  path: string;
  kind: 'added' | 'removed' | 'changed';
  detail?: string;
}

/** Path → node, each path naming a node by id or by tag and position among same-tag siblings. */
function flatten(node: SnapshotNode, path: string, into: Map<string, SnapshotNode>): Map<string, SnapshotNode> {
  into.set(path, node);
  const seen: Record<string, number> = {};
  for (const child of node.children ?? []) {
    seen[child.tag] = (seen[child.tag] ?? 0) + 1;
    const step = child.attrs?.id ? `${child.tag}#${child.attrs.id}` : `${child.tag}[${seen[child.tag]}]`;
    flatten(child, `${path} > ${step}`, into);
  }
  return into;
}

function compare(before: SnapshotNode, after: SnapshotNode, limit: number) {
  const a = flatten(before, before.tag, new Map());
  const b = flatten(after, after.tag, new Map());
  const changes: Change[] = [];
  let added = 0;
  let removed = 0;
  let changed = 0;
  for (const [path, node] of b) {
    const old = a.get(path);
    if (!old) {
      // Only the top of an added subtree counts: its descendants came with it.
      const parent = path.slice(0, path.lastIndexOf(' > '));
      if (a.has(parent) || !b.has(parent)) {
        added++;
        if (changes.length < limit) changes.push({path, kind: 'added', detail: node.text});
      }
      continue;
    }
    const details: string[] = [];
    if ((old.text ?? '') !== (node.text ?? '')) details.push(`text ${JSON.stringify(old.text ?? '')} → ${JSON.stringify(node.text ?? '')}`);
    const names = new Set([...Object.keys(old.attrs ?? {}), ...Object.keys(node.attrs ?? {})]);
    for (const name of names) {
      const was = old.attrs?.[name];
      const now = node.attrs?.[name];
      if (was !== now) details.push(`${name} ${was === undefined ? '(none)' : JSON.stringify(was)} → ${now === undefined ? '(none)' : JSON.stringify(now)}`);
    }
    if (details.length > 0) {
      changed++;
      if (changes.length < limit) changes.push({path, kind: 'changed', detail: details.join('; ')});
    }
  }
  for (const path of a.keys()) {
    if (b.has(path)) continue;
    const parent = path.slice(0, path.lastIndexOf(' > '));
    if (b.has(parent)) {
      removed++;
      if (changes.length < limit) changes.push({path, kind: 'removed'});
    }
  }
  return {added, removed, changed, identical: added + removed + changed === 0, changes, truncated: added + removed + changed > changes.length};
}

function isSnapshot(value: unknown): value is DomSnapshot {
  return typeof value === 'object' && value !== null && typeof (value as DomSnapshot).tree === 'object' && typeof (value as DomSnapshot).tree?.tag === 'string';
}

function resolveSnapshot(value: unknown, label: string): DomSnapshot | {error: string} {
  if (typeof value === 'string') return kept.get(value) ?? failure(`no snapshot named ${JSON.stringify(value)} for ${label}; kept: ${[...kept.keys()].join(', ') || 'none'}`);
  if (isSnapshot(value)) return value;
  return failure(`${label} must be a snapshot name or an object snapshotDom answered`);
}

export const snapshots = {
  snapshotDom: primitive(
    'options? {selector?: string, name?: string, maxNodes?: number}',
    'A plain tree of tags, key attributes and own text under selector (default body); with name, kept in the page for diffSnapshots',
    (options?: unknown) => {
      const settings = typeof options === 'object' && options !== null ? (options as {selector?: unknown; name?: unknown; maxNodes?: unknown}) : {};
      const selector = settings.selector === undefined ? 'body' : settings.selector;
      if (typeof selector !== 'string') return failure('selector must be a CSS selector string');
      const maxNodes = typeof settings.maxNodes === 'number' && settings.maxNodes > 0 ? Math.min(settings.maxNodes, 20_000) : 2000;
      const snapshot = take(selector, maxNodes);
      if ('error' in snapshot) return snapshot;
      if (typeof settings.name === 'string' && settings.name !== '') {
        kept.delete(settings.name);
        kept.set(settings.name, snapshot);
        // The oldest kept snapshots go first.
        while (kept.size > MAX_KEPT) kept.delete(kept.keys().next().value as string);
        return {name: settings.name, nodes: snapshot.nodes, truncated: snapshot.truncated, url: snapshot.url};
      }
      return snapshot;
    },
  ),
  diffSnapshots: primitive(
    'before, after?, limit?',
    'Added, removed and changed nodes between two snapshots (names or objects); after defaults to the DOM now',
    (before: unknown, after?: unknown, limit?: unknown) => {
      const a = resolveSnapshot(before, 'before');
      if ('error' in a) return a;
      const b = after === undefined || after === null ? take(a.root, 20_000) : resolveSnapshot(after, 'after');
      if ('error' in b) return b;
      const max = typeof limit === 'number' && limit > 0 ? Math.min(limit, 500) : 50;
      return compare(a.tree, b.tree, max);
    },
  ),
  listSnapshots: primitive('', 'Snapshots kept in the page by name', () => ({
    snapshots: [...kept.entries()].map(([name, snapshot]) => ({name, url: snapshot.url, root: snapshot.root, nodes: snapshot.nodes, takenAt: snapshot.takenAt})),
  })),
};
