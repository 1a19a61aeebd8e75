/** Finding elements by selector and describing them as plain data: primitives never hand back a DOM node. */
import {failure, type PrimitiveError} from './primitive.js';

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface ElementSummary {
  selector: string;
  tag: string;
  id?: string;
  classes?: string[];
  text?: string;
  rect: Rect;
}

const TEXT_LIMIT = 80;

export function round(value: number): number {
  return Math.round(value * 100) / 100;
}

export function rectOf(rect: DOMRectReadOnly): Rect {
  return {x: round(rect.x), y: round(rect.y), width: round(rect.width), height: round(rect.height)};
}

export function clip(text: string, limit = TEXT_LIMIT): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > limit ? `${flat.slice(0, limit - 1)}…` : flat;
}

function cssEscape(text: string): string {
  return typeof CSS !== 'undefined' && CSS.escape ? CSS.escape(text) : text.replace(/[^\w-]/g, (c) => `\\${c}`);
}

/** A selector that finds this element again: its id when unique, else a path of tag:nth-of-type from the nearest unique id or the root. */
export function selectorOf(element: Element): string {
  const parts: string[] = [];
  let node: Element | null = element;
  while (node && node.nodeType === 1 && parts.length < 12) {
    const tag = node.tagName.toLowerCase();
    if (node.id && node.ownerDocument.querySelectorAll(`#${cssEscape(node.id)}`).length === 1) {
      parts.unshift(`#${cssEscape(node.id)}`);
      break;
    }
    if (tag === 'html' || tag === 'body' || tag === 'head') {
      parts.unshift(tag);
      break;
    }
    const parent: Element | null = node.parentElement;
    if (!parent) {
      parts.unshift(tag);
      break;
    }
    const same = Array.prototype.filter.call(parent.children, (child: Element) => child.tagName === node!.tagName);
    parts.unshift(same.length > 1 ? `${tag}:nth-of-type(${same.indexOf(node) + 1})` : tag);
    node = parent;
  }
  return parts.join(' > ');
}

export function describe(element: Element): ElementSummary {
  const summary: ElementSummary = {selector: selectorOf(element), tag: element.tagName.toLowerCase(), rect: rectOf(element.getBoundingClientRect())};
  if (element.id) summary.id = element.id;
  const classes = Array.from(element.classList);
  if (classes.length > 0) summary.classes = classes.slice(0, 10);
  const text = clip((element as HTMLElement).innerText ?? element.textContent ?? '');
  if (text) summary.text = text;
  return summary;
}

function checkSelector(selector: unknown): PrimitiveError | undefined {
  if (typeof selector !== 'string' || selector.trim() === '') return failure('selector must be a non-empty CSS selector string');
  return undefined;
}

/** The first element matching `selector`, or an error naming what went wrong. */
export function find(selector: unknown): Element | PrimitiveError {
  const bad = checkSelector(selector);
  if (bad) return bad;
  try {
    return document.querySelector(selector as string) ?? failure(`no element matches ${JSON.stringify(selector)}`);
  } catch (_error) {
    return failure(`invalid selector ${JSON.stringify(selector)}`);
  }
}

/** Every element matching `selector` (possibly none), or an error for a malformed selector. */
export function findAll(selector: unknown): Element[] | PrimitiveError {
  const bad = checkSelector(selector);
  if (bad) return bad;
  try {
    return Array.from(document.querySelectorAll(selector as string));
  } catch (_error) {
    return failure(`invalid selector ${JSON.stringify(selector)}`);
  }
}

/** Runs `read` on the first match of `selector`, or answers the lookup error. */
export function withElement<T>(selector: unknown, read: (element: Element) => T): T | PrimitiveError {
  const element = find(selector);
  return element instanceof Element ? read(element) : element;
}

export function limitOf(value: unknown, fallback: number, max = 500): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.min(Math.floor(value), max) : fallback;
}

/** Every element of the document in tree order (html included), less our own overlays. */
export function allElements(): Element[] {
  return Array.from(document.getElementsByTagName('*')).filter((element) => !element.closest('[data-workbench-overlay]'));
}

export function isRendered(element: Element): boolean {
  if (!element.isConnected) return false;
  const style = getComputedStyle(element);
  if (style.display === 'none' || style.visibility === 'hidden' || style.visibility === 'collapse') return false;
  const rect = element.getBoundingClientRect();
  return rect.width > 0 || rect.height > 0 || element.getClientRects().length > 0;
}
