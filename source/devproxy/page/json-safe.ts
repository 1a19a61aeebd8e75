/**
 * Turns any value a page produces into data JSON can carry: cycles become "[Circular]", functions,
 * symbols and BigInts become text, DOM nodes are described, Errors keep name, message and stack,
 * and depth, width and total size are capped so one answer cannot outgrow the channel's frame.
 */
import {clip, describe} from './element.js';

export interface JsonSafeLimits {
  maxDepth: number;
  /** Items per array, keys per object. */
  maxItems: number;
  maxString: number;
  /** Rough budget of characters for the whole value. */
  maxChars: number;
}

const DEFAULTS: JsonSafeLimits = {maxDepth: 12, maxItems: 1000, maxString: 20_000, maxChars: 200_000};

export function toJsonSafe(value: unknown, limits: Partial<JsonSafeLimits> = {}): unknown {
  const limit = {...DEFAULTS, ...limits};
  let budget = limit.maxChars;
  const ancestors: object[] = [];

  const text = (string: string): string => {
    const cut = string.length > limit.maxString ? `${string.slice(0, limit.maxString)}… (${string.length} characters)` : string;
    budget -= cut.length + 2;
    return cut;
  };

  const visit = (input: unknown, depth: number): unknown => {
    if (budget <= 0) return '[Truncated]';
    budget -= 4;
    switch (typeof input) {
      case 'string':
        return text(input);
      case 'number':
        return Number.isFinite(input) ? input : String(input);
      case 'boolean':
        return input;
      case 'undefined':
        return undefined;
      case 'bigint':
        return text(`${input}n`);
      case 'symbol':
        return text(input.toString());
      case 'function':
        return text(`[Function ${input.name || 'anonymous'}]`);
    }
    if (input === null) return null;
    const object = input as object;
    if (ancestors.includes(object)) return '[Circular]';
    if (depth >= limit.maxDepth) return '[Depth limit]';
    try {
      if (typeof Window !== 'undefined' && object instanceof Window) return '[Window]';
      if (typeof Node !== 'undefined' && object instanceof Node) return describeNode(object);
      if (object instanceof Error) return {name: text(object.name), message: text(object.message), stack: object.stack ? text(object.stack) : undefined};
      if (object instanceof Date) return Number.isNaN(object.getTime()) ? 'Invalid Date' : object.toISOString();
      if (object instanceof RegExp) return text(String(object));
      if (typeof Promise !== 'undefined' && object instanceof Promise) return '[Promise]';
      if (object instanceof WeakMap || object instanceof WeakSet) return `[${object.constructor.name}]`;
      ancestors.push(object);
      try {
        if (object instanceof Map) return visitItems(Array.from(object.entries()), depth);
        if (object instanceof Set) return visitItems(Array.from(object), depth);
        if (Array.isArray(object) || ArrayBuffer.isView(object)) return visitItems(Array.from(object as ArrayLike<unknown>), depth);
        if (typeof NodeList !== 'undefined' && (object instanceof NodeList || object instanceof HTMLCollection)) return visitItems(Array.from(object as ArrayLike<unknown>), depth);
        const toJSON = (object as {toJSON?: unknown}).toJSON;
        if (typeof toJSON === 'function') {
          const plain = toJSON.call(object);
          if (plain !== object) return visit(plain, depth);
        }
        const out: Record<string, unknown> = {};
        const keys = Object.keys(object);
        for (const key of keys.slice(0, limit.maxItems)) {
          if (budget <= 0) {
            out['…'] = '[Truncated]';
            break;
          }
          budget -= key.length + 3;
          let item: unknown;
          try {
            item = (object as Record<string, unknown>)[key];
          } catch (error) {
            item = `[Thrown: ${error instanceof Error ? error.message : String(error)}]`;
          }
          const safe = visit(item, depth + 1);
          if (safe !== undefined) out[key] = safe;
        }
        if (keys.length > limit.maxItems) out['…'] = `${keys.length - limit.maxItems} more keys`;
        return out;
      } finally {
        ancestors.pop();
      }
    } catch (error) {
      return text(`[Unserialisable: ${error instanceof Error ? error.message : String(error)}]`);
    }
  };

  const visitItems = (items: unknown[], depth: number): unknown[] => {
    const out: unknown[] = [];
    for (const item of items.slice(0, limit.maxItems)) {
      if (budget <= 0) {
        out.push('[Truncated]');
        break;
      }
      const safe = visit(item, depth + 1);
      out.push(safe === undefined ? null : safe);
    }
    if (items.length > limit.maxItems) out.push(`… ${items.length - limit.maxItems} more items`);
    return out;
  };

  return visit(value, 0);
}

function describeNode(node: Node): unknown {
  if (node.nodeType === 1) return {node: 'element', ...describe(node as Element)};
  if (node.nodeType === 9) return {node: 'document', url: (node as Document).URL, title: (node as Document).title};
  if (node.nodeType === 3) return {node: 'text', text: clip(node.textContent ?? '', 200)};
  return {node: node.nodeName};
}
