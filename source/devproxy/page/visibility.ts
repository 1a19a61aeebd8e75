/** Is it seen: visibility with reasons, viewport checks, overlap, hit testing and scroll state. */
import {describe, find, isRendered, rectOf, round, withElement, type Rect} from './element.js';
import {failure, primitive} from './primitive.js';

/** Why an element cannot be seen, or an empty list when nothing hides it. */
export function hiddenReasons(element: Element): string[] {
  const reasons: string[] = [];
  if (!element.isConnected) return ['detached'];
  for (let node: Element | null = element; node; node = node.parentElement) {
    const style = getComputedStyle(node);
    const who = node === element ? '' : ` on ancestor ${describe(node).selector}`;
    if (style.display === 'none') reasons.push(`display none${who}`);
    if (node === element && (style.visibility === 'hidden' || style.visibility === 'collapse')) reasons.push(`visibility ${style.visibility}`);
    if (parseFloat(style.opacity) === 0) reasons.push(`opacity 0${who}`);
  }
  const rect = element.getBoundingClientRect();
  if (rect.width === 0 && rect.height === 0 && !reasons.some((reason) => reason.startsWith('display'))) reasons.push('zero size');
  const style = getComputedStyle(element);
  if (style.clipPath === 'inset(50%)' || (style.clip && style.clip !== 'auto' && /rect\(0(px)?,? 0(px)?,? 0(px)?,? 0(px)?\)/.test(style.clip))) reasons.push('clipped away');
  return reasons;
}

function viewportRatio(rect: DOMRect): number {
  const width = Math.max(0, Math.min(rect.right, window.innerWidth) - Math.max(rect.left, 0));
  const height = Math.max(0, Math.min(rect.bottom, window.innerHeight) - Math.max(rect.top, 0));
  const area = rect.width * rect.height;
  return area > 0 ? round((width * height) / area) : 0;
}

function intersection(a: DOMRect, b: DOMRect): Rect | null {
  const x = Math.max(a.left, b.left);
  const y = Math.max(a.top, b.top);
  const right = Math.min(a.right, b.right);
  const bottom = Math.min(a.bottom, b.bottom);
  return right > x && bottom > y ? {x: round(x), y: round(y), width: round(right - x), height: round(bottom - y)} : null;
}

function point(x: unknown, y: unknown): {x: number; y: number} | undefined {
  return typeof x === 'number' && typeof y === 'number' && Number.isFinite(x) && Number.isFinite(y) ? {x, y} : undefined;
}

export const visibility = {
  isVisible: primitive('selector', 'Whether the first match can be seen, with the reasons it cannot (display, visibility, opacity, size, clip)', (selector: unknown) =>
    withElement(selector, (element) => {
      const reasons = hiddenReasons(element);
      return {visible: reasons.length === 0, reasons, element: describe(element)};
    }),
  ),
  isInViewport: primitive('selector', 'Whether the first match is inside the viewport, and which fraction of it is', (selector: unknown) =>
    withElement(selector, (element) => {
      const rect = element.getBoundingClientRect();
      const ratio = viewportRatio(rect);
      return {inViewport: ratio > 0, fullyInViewport: ratio >= 1, ratio, rect: rectOf(rect), viewport: {width: window.innerWidth, height: window.innerHeight}};
    }),
  ),
  checkOverlap: primitive('selectorA, selectorB', 'Whether two elements overlap: the shared rect, its area and share of each', (a: unknown, b: unknown) => {
    const first = find(a);
    if (!(first instanceof Element)) return first;
    const second = find(b);
    if (!(second instanceof Element)) return second;
    const rectA = first.getBoundingClientRect();
    const rectB = second.getBoundingClientRect();
    const shared = intersection(rectA, rectB);
    const area = shared ? shared.width * shared.height : 0;
    const share = (rect: DOMRect) => (rect.width * rect.height > 0 ? round(area / (rect.width * rect.height)) : 0);
    return {overlaps: shared !== null, intersection: shared, area: round(area), ofA: share(rectA), ofB: share(rectB), a: describe(first), b: describe(second)};
  }),
  elementAtPoint: primitive('x, y', 'The topmost element at viewport coordinates (x, y)', (x: unknown, y: unknown) => {
    const at = point(x, y);
    if (!at) return failure('x and y must be finite numbers (viewport pixels)');
    const element = document.elementFromPoint(at.x, at.y);
    return {element: element ? describe(element) : null};
  }),
  elementsAtPoint: primitive('x, y', 'Every element under viewport coordinates (x, y), topmost first', (x: unknown, y: unknown) => {
    const at = point(x, y);
    if (!at) return failure('x and y must be finite numbers (viewport pixels)');
    return {elements: document.elementsFromPoint(at.x, at.y).slice(0, 30).map(describe)};
  }),
  isObscured: primitive('selector', 'Whether another element covers the centre of the first match (what a click there would hit)', (selector: unknown) =>
    withElement(selector, (element) => {
      const rect = element.getBoundingClientRect();
      const x = rect.left + rect.width / 2;
      const y = rect.top + rect.height / 2;
      if (viewportRatio(rect) === 0) return {obscured: null, reason: 'outside the viewport', element: describe(element)};
      const top = document.elementFromPoint(x, y);
      const obscured = top !== null && top !== element && !element.contains(top);
      return {obscured, by: obscured && top ? describe(top) : null, point: {x: round(x), y: round(y)}};
    }),
  ),
  getViewport: primitive('', 'Viewport and document sizes, scroll position, device pixel ratio and orientation', () => ({
    innerWidth: window.innerWidth,
    innerHeight: window.innerHeight,
    clientWidth: document.documentElement.clientWidth,
    clientHeight: document.documentElement.clientHeight,
    documentWidth: document.documentElement.scrollWidth,
    documentHeight: document.documentElement.scrollHeight,
    scrollX: round(window.scrollX),
    scrollY: round(window.scrollY),
    devicePixelRatio: window.devicePixelRatio,
    orientation: window.innerWidth >= window.innerHeight ? 'landscape' : 'portrait',
    horizontalScroll: document.documentElement.scrollWidth > document.documentElement.clientWidth,
  })),
  getScrollInfo: primitive('selector?', 'Scroll position and range of the page, or of the first match', (selector?: unknown) => {
    if (selector === undefined) {
      const root = document.scrollingElement ?? document.documentElement;
      return {
        scrollTop: round(root.scrollTop),
        scrollLeft: round(root.scrollLeft),
        maxScrollTop: root.scrollHeight - root.clientHeight,
        maxScrollLeft: root.scrollWidth - root.clientWidth,
      };
    }
    return withElement(selector, (element) => ({
      scrollTop: round(element.scrollTop),
      scrollLeft: round(element.scrollLeft),
      maxScrollTop: element.scrollHeight - element.clientHeight,
      maxScrollLeft: element.scrollWidth - element.clientWidth,
      scrollable: element.scrollHeight > element.clientHeight || element.scrollWidth > element.clientWidth,
    }));
  }),
  scrollIntoView: primitive('selector', 'Scrolls the first match into the centre of the view and answers its new rect', (selector: unknown) =>
    withElement(selector, (element) => {
      element.scrollIntoView({block: 'center', inline: 'center'});
      return {rect: rectOf(element.getBoundingClientRect()), scrollX: round(window.scrollX), scrollY: round(window.scrollY)};
    }),
  ),
  isRendered: primitive('selector', 'Whether the first match takes part in layout (not display none, not hidden, has boxes)', (selector: unknown) =>
    withElement(selector, (element) => ({rendered: isRendered(element)})),
  ),
};
