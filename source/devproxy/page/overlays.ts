/** Visual overlays drawn over the page for a person watching: highlight boxes and labels, cleared by id or all at once. */
import {describe, findAll, rectOf} from './element.js';
import {failure, primitive} from './primitive.js';

/** Marks our own overlay host so the page's finders skip it. */
export const OVERLAY_ATTRIBUTE = 'data-workbench-overlay';

const overlays = new Map<string, Element[]>();
let counter = 0;

function host(): HTMLElement {
  let root = document.querySelector(`[${OVERLAY_ATTRIBUTE}]`) as HTMLElement | null;
  if (!root) {
    root = document.createElement('div');
    root.setAttribute(OVERLAY_ATTRIBUTE, '');
    root.style.cssText = 'position:absolute;left:0;top:0;width:0;height:0;z-index:2147483647;pointer-events:none;';
    document.documentElement.appendChild(root);
  }
  return root;
}

function box(target: Element, color: string, label: string): HTMLElement {
  const rect = target.getBoundingClientRect();
  const outline = document.createElement('div');
  outline.style.cssText = `position:absolute;box-sizing:border-box;pointer-events:none;border:2px solid ${color};background:${color}22;left:${rect.left + window.scrollX}px;top:${rect.top + window.scrollY}px;width:${rect.width}px;height:${rect.height}px;`;
  if (label) {
    const tag = document.createElement('span');
    tag.textContent = label;
    tag.style.cssText = `position:absolute;left:-2px;top:-18px;font:11px/16px monospace;padding:0 4px;color:#fff;background:${color};white-space:nowrap;`;
    outline.appendChild(tag);
  }
  return outline;
}

export const overlaysGroup = {
  highlight: primitive(
    'selector, options? {color?, label?, all?}',
    'Draws a box over the first (or every) match; answers the overlay id to remove it',
    (selector: unknown, options?: unknown) => {
      const found = findAll(selector);
      if (!Array.isArray(found)) return found;
      if (found.length === 0) return failure(`no element matches ${JSON.stringify(selector)}`);
      const settings = typeof options === 'object' && options !== null ? (options as {color?: unknown; label?: unknown; all?: unknown}) : {};
      const color = typeof settings.color === 'string' && CSS.supports('color', settings.color) ? settings.color : '#e5484d';
      const targets = settings.all === true ? found.slice(0, 100) : found.slice(0, 1);
      const id = `overlay-${++counter}`;
      const root = host();
      const drawn = targets.map((target) => root.appendChild(box(target, color, typeof settings.label === 'string' ? settings.label : describe(target).selector)));
      overlays.set(id, drawn);
      return {id, count: drawn.length, rects: targets.map((target) => rectOf(target.getBoundingClientRect()))};
    },
  ),
  removeHighlight: primitive('id', 'Removes one overlay by the id highlight answered', (id: unknown) => {
    const drawn = typeof id === 'string' ? overlays.get(id) : undefined;
    if (!drawn) return failure(`no overlay ${JSON.stringify(id)}; live: ${[...overlays.keys()].join(', ') || 'none'}`);
    for (const element of drawn) element.remove();
    overlays.delete(id as string);
    return {removed: id};
  }),
  clearOverlays: primitive('', 'Removes every overlay drawn by highlight', () => {
    const count = overlays.size;
    overlays.clear();
    document.querySelector(`[${OVERLAY_ATTRIBUTE}]`)?.remove();
    return {removed: count};
  }),
  listOverlays: primitive('', 'The overlays drawn now, by id', () => ({overlays: [...overlays.entries()].map(([id, drawn]) => ({id, boxes: drawn.length}))})),
};
