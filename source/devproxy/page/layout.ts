/** Whole-page layout finders: overflow, offscreen content, stacking contexts, fixed layers, small targets, gaps. */
import {allElements, describe, find, isRendered, limitOf, round} from './element.js';
import {overflowOf, stackingReason} from './inspect.js';
import {primitive} from './primitive.js';

const SKIP = /^(SCRIPT|STYLE|HEAD|META|LINK|TITLE|NOSCRIPT|TEMPLATE|BR|WBR)$/;

function rendered(): Element[] {
  return allElements().filter((element) => !SKIP.test(element.tagName) && isRendered(element));
}

function capped<T>(items: T[], limit: unknown, fallback = 20) {
  const max = limitOf(limit, fallback);
  return {count: items.length, items: items.slice(0, max), truncated: items.length > max};
}

export const layout = {
  findOverflows: primitive('limit?', 'Elements whose content is larger than their box (scrolling or clipped), with by how much', (limit?: unknown) =>
    capped(
      rendered()
        .filter((element) => element !== document.documentElement && element !== document.body)
        .map((element) => ({element, overflow: overflowOf(element)}))
        .filter(({overflow}) => overflow.overflowsX || overflow.overflowsY)
        .map(({element, overflow}) => ({
          ...describe(element),
          overflowX: overflow.overflowX,
          overflowY: overflow.overflowY,
          excessX: overflow.scrollWidth - overflow.clientWidth,
          excessY: overflow.scrollHeight - overflow.clientHeight,
          clipped: overflow.clipped,
        })),
      limit,
    ),
  ),
  findOffscreen: primitive('limit?', 'Rendered elements lying wholly outside the page (negative coordinates or past the document width)', (limit?: unknown) => {
    const pageWidth = Math.max(document.documentElement.clientWidth, window.innerWidth);
    const items = rendered()
      .map((element) => ({element, rect: element.getBoundingClientRect()}))
      .filter(({rect}) => rect.width > 0 && rect.height > 0)
      .filter(({rect}) => rect.right + window.scrollX <= 0 || rect.bottom + window.scrollY <= 0 || rect.left + window.scrollX >= pageWidth)
      .map(({element, rect}) => ({
        ...describe(element),
        side: rect.right + window.scrollX <= 0 ? 'left' : rect.bottom + window.scrollY <= 0 ? 'top' : 'right',
      }));
    return capped(items, limit);
  }),
  findStackingContexts: primitive('limit?', 'Elements that form a stacking context, with the CSS reason and z-index', (limit?: unknown) =>
    capped(
      allElements()
        .map((element) => ({element, reason: stackingReason(element)}))
        .filter((entry): entry is {element: Element; reason: string} => entry.reason !== undefined)
        .map(({element, reason}) => ({...describe(element), reason, zIndex: getComputedStyle(element).zIndex})),
      limit,
      50,
    ),
  ),
  findFixedElements: primitive('', 'Fixed and sticky elements (headers, banners, overlays) with the viewport share they cover', () =>
    capped(
      rendered()
        .filter((element) => /fixed|sticky/.test(getComputedStyle(element).position))
        .map((element) => {
          const rect = element.getBoundingClientRect();
          return {...describe(element), position: getComputedStyle(element).position, viewportShare: round((rect.width * rect.height) / (window.innerWidth * window.innerHeight))};
        }),
      50,
    ),
  ),
  findHorizontalScrollCauses: primitive('limit?', 'Elements wider than the viewport or reaching past its right edge (causes of a horizontal scrollbar)', (limit?: unknown) => {
    const width = document.documentElement.clientWidth;
    const items = rendered()
      .filter((element) => element !== document.documentElement && element !== document.body)
      .map((element) => ({element, rect: element.getBoundingClientRect()}))
      .filter(({rect}) => rect.width > 0 && rect.right + window.scrollX > width + 1 && rect.left + window.scrollX < width)
      .map(({element, rect}) => ({...describe(element), past: round(rect.right + window.scrollX - width)}));
    return {documentWidth: document.documentElement.scrollWidth, viewportWidth: width, ...capped(items, limit)};
  }),
  findTruncatedText: primitive('limit?', 'Text cut off by its box (ellipsis, clamp or hidden overflow): what a reader cannot see', (limit?: unknown) =>
    capped(
      rendered()
        .filter((element) => {
          const style = getComputedStyle(element);
          return (
            /hidden|clip/.test(style.overflowX + style.overflowY) &&
            (element.scrollWidth > element.clientWidth + 1 || element.scrollHeight > element.clientHeight + 1) &&
            (element.textContent ?? '').trim() !== ''
          );
        })
        .map((element) => ({
          ...describe(element),
          textOverflow: getComputedStyle(element).textOverflow,
          fullText: (element.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 200),
        })),
      limit,
    ),
  ),
  findSmallTargets: primitive(
    'minSize?, limit?',
    'Links, buttons and inputs smaller than minSize px (default 24, WCAG 2.5.8; inline links in text excepted)',
    (minSize?: unknown, limit?: unknown) => {
      const min = typeof minSize === 'number' && minSize > 0 ? minSize : 24;
      const items = Array.from(document.querySelectorAll('a[href], button, input:not([type=hidden]), select, textarea, [role=button], [role=link], [onclick]'))
        .filter(isRendered)
        // WCAG's inline exception: a link in running text is as tall as its line.
        .filter((element) => getComputedStyle(element).display !== 'inline')
        .map((element) => ({element, rect: element.getBoundingClientRect()}))
        .filter(({rect}) => rect.width < min || rect.height < min)
        .map(({element}) => describe(element));
      return {minSize: min, ...capped(items, limit)};
    },
  ),
  findEmptyContainers: primitive('limit?', 'Rendered block elements with no children, no text and no size: leftovers of conditional rendering', (limit?: unknown) =>
    capped(
      rendered()
        .filter((element) => /^(DIV|SECTION|ARTICLE|ASIDE|UL|OL|P|SPAN)$/.test(element.tagName) && element.children.length === 0 && (element.textContent ?? '').trim() === '')
        .map(describe),
      limit,
    ),
  ),
  measureBetween: primitive('selectorA, selectorB', 'Horizontal and vertical gaps between two elements and the distance of their centres', (a: unknown, b: unknown) => {
    const first = find(a);
    if (!(first instanceof Element)) return first;
    const second = find(b);
    if (!(second instanceof Element)) return second;
    const ra = first.getBoundingClientRect();
    const rb = second.getBoundingClientRect();
    const gapX = Math.max(0, Math.max(ra.left, rb.left) - Math.min(ra.right, rb.right));
    const gapY = Math.max(0, Math.max(ra.top, rb.top) - Math.min(ra.bottom, rb.bottom));
    const centre = (r: DOMRect) => ({x: r.left + r.width / 2, y: r.top + r.height / 2});
    const ca = centre(ra);
    const cb = centre(rb);
    return {gapX: round(gapX), gapY: round(gapY), centreDistance: round(Math.hypot(cb.x - ca.x, cb.y - ca.y)), aAbove: ra.bottom <= rb.top, aLeftOf: ra.right <= rb.left};
  }),
  getGridAndFlexContainers: primitive('limit?', 'Flex and grid containers on the page with their main settings', (limit?: unknown) =>
    capped(
      rendered()
        .filter((element) => /flex|grid/.test(getComputedStyle(element).display))
        .map((element) => {
          const style = getComputedStyle(element);
          return {
            ...describe(element),
            display: style.display,
            ...(/grid/.test(style.display) ? {columns: style.gridTemplateColumns} : {direction: style.flexDirection, wrap: style.flexWrap}),
            gap: style.gap,
            children: element.children.length,
          };
        }),
      limit,
    ),
  ),
};
