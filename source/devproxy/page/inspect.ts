/** Inspecting one element: where it is, its box, styles, stacking, transform and overflow. */
import {clip, describe, rectOf, round, withElement} from './element.js';
import {primitive} from './primitive.js';

const px = (value: string): number => round(parseFloat(value) || 0);

function sides(style: CSSStyleDeclaration, prefix: string, suffix = ''): {top: number; right: number; bottom: number; left: number} {
  const side = (name: string) => px(style.getPropertyValue(`${prefix}-${name}${suffix}`));
  return {top: side('top'), right: side('right'), bottom: side('bottom'), left: side('left')};
}

/** Why an element forms a stacking context (the CSS rules that make one), or undefined. */
export function stackingReason(element: Element): string | undefined {
  if (element === document.documentElement) return 'root';
  const style = getComputedStyle(element);
  const parent = element.parentElement ? getComputedStyle(element.parentElement) : undefined;
  const flexOrGridChild = parent !== undefined && /flex|grid/.test(parent.display);
  if (style.zIndex !== 'auto' && (style.position !== 'static' || flexOrGridChild))
    return `z-index ${style.zIndex} on ${style.position === 'static' ? 'flex/grid item' : style.position}`;
  if (style.position === 'fixed' || style.position === 'sticky') return `position ${style.position}`;
  if (parseFloat(style.opacity) < 1) return `opacity ${style.opacity}`;
  if (style.transform !== 'none') return 'transform';
  if (style.filter !== 'none') return 'filter';
  if (style.getPropertyValue('backdrop-filter') && style.getPropertyValue('backdrop-filter') !== 'none') return 'backdrop-filter';
  if (style.perspective !== 'none') return 'perspective';
  if (style.clipPath !== 'none') return 'clip-path';
  if (style.mask && style.mask !== 'none') return 'mask';
  if (style.mixBlendMode !== 'normal') return `mix-blend-mode ${style.mixBlendMode}`;
  if (style.isolation === 'isolate') return 'isolation isolate';
  if (/layout|paint|strict|content/.test(style.contain)) return `contain ${style.contain}`;
  if (/transform|opacity|filter|z-index/.test(style.willChange)) return `will-change ${style.willChange}`;
  return undefined;
}

export function overflowOf(element: Element) {
  const style = getComputedStyle(element);
  return {
    overflowX: style.overflowX,
    overflowY: style.overflowY,
    scrollWidth: element.scrollWidth,
    scrollHeight: element.scrollHeight,
    clientWidth: element.clientWidth,
    clientHeight: element.clientHeight,
    overflowsX: element.scrollWidth > element.clientWidth + 1,
    overflowsY: element.scrollHeight > element.clientHeight + 1,
    clipped: (element.scrollWidth > element.clientWidth + 1 || element.scrollHeight > element.clientHeight + 1) && /hidden|clip/.test(style.overflowX + style.overflowY),
  };
}

export const inspect = {
  getElementInfo: primitive('selector', 'Tag, id, classes, short text, rect, attributes and key styles of the first match', (selector: unknown) =>
    withElement(selector, (element) => {
      const style = getComputedStyle(element);
      const attributes: Record<string, string> = {};
      for (const attribute of Array.from(element.attributes).slice(0, 30)) attributes[attribute.name] = clip(attribute.value, 200);
      return {
        ...describe(element),
        attributes,
        children: element.children.length,
        display: style.display,
        position: style.position,
        visibility: style.visibility,
        opacity: style.opacity,
        zIndex: style.zIndex,
        color: style.color,
        backgroundColor: style.backgroundColor,
        fontSize: style.fontSize,
      };
    }),
  ),
  getPosition: primitive('selector', 'Viewport rect, page coordinates (scroll added) and offset parent of the first match', (selector: unknown) =>
    withElement(selector, (element) => {
      const rect = element.getBoundingClientRect();
      const offsetParent = (element as HTMLElement).offsetParent;
      return {
        viewport: rectOf(rect),
        page: {x: round(rect.left + window.scrollX), y: round(rect.top + window.scrollY), width: round(rect.width), height: round(rect.height)},
        offsetParent: offsetParent ? describe(offsetParent).selector : null,
      };
    }),
  ),
  getBox: primitive('selector', 'Box model: margin, border, padding and content sizes', (selector: unknown) =>
    withElement(selector, (element) => {
      const style = getComputedStyle(element);
      const rect = element.getBoundingClientRect();
      const padding = sides(style, 'padding');
      const border = sides(style, 'border', '-width');
      return {
        boxSizing: style.boxSizing,
        margin: sides(style, 'margin'),
        border,
        padding,
        content: {
          width: round(rect.width - padding.left - padding.right - border.left - border.right),
          height: round(rect.height - padding.top - padding.bottom - border.top - border.bottom),
        },
        border_box: rectOf(rect),
      };
    }),
  ),
  getComputed: primitive('selector, properties?', 'Computed style values: the given property names, or a common set', (selector: unknown, properties?: unknown) =>
    withElement(selector, (element) => {
      const style = getComputedStyle(element);
      const names =
        Array.isArray(properties) && properties.every((name) => typeof name === 'string')
          ? (properties as string[]).slice(0, 100)
          : [
              'display',
              'position',
              'width',
              'height',
              'margin',
              'padding',
              'color',
              'background-color',
              'font-family',
              'font-size',
              'line-height',
              'z-index',
              'opacity',
              'overflow',
            ];
      return Object.fromEntries(names.map((name) => [name, style.getPropertyValue(name)]));
    }),
  ),
  getLayout: primitive('selector', 'Display, flex or grid settings of the element and how its parent lays it out', (selector: unknown) =>
    withElement(selector, (element) => {
      const style = getComputedStyle(element);
      const parent = element.parentElement ? getComputedStyle(element.parentElement) : undefined;
      const own: Record<string, string> = {display: style.display, position: style.position, float: style.float, boxSizing: style.boxSizing};
      if (/flex/.test(style.display))
        Object.assign(own, {flexDirection: style.flexDirection, flexWrap: style.flexWrap, justifyContent: style.justifyContent, alignItems: style.alignItems, gap: style.gap});
      if (/grid/.test(style.display))
        Object.assign(own, {
          gridTemplateColumns: style.gridTemplateColumns,
          gridTemplateRows: style.gridTemplateRows,
          gap: style.gap,
          justifyItems: style.justifyItems,
          alignItems: style.alignItems,
        });
      const asItem: Record<string, string> = {};
      if (parent && /flex/.test(parent.display))
        Object.assign(asItem, {
          context: 'flex',
          flexGrow: style.flexGrow,
          flexShrink: style.flexShrink,
          flexBasis: style.flexBasis,
          order: style.order,
          alignSelf: style.alignSelf,
        });
      if (parent && /grid/.test(parent.display))
        Object.assign(asItem, {context: 'grid', gridColumn: style.gridColumn, gridRow: style.gridRow, justifySelf: style.justifySelf, alignSelf: style.alignSelf});
      return {...own, item: Object.keys(asItem).length > 0 ? asItem : null, children: element.children.length};
    }),
  ),
  getStacking: primitive('selector', 'z-index, whether it forms a stacking context and why, and the stacking contexts above it', (selector: unknown) =>
    withElement(selector, (element) => {
      const contexts: Array<{selector: string; reason: string}> = [];
      for (let node = element.parentElement; node; node = node.parentElement) {
        const reason = stackingReason(node);
        if (reason) contexts.push({selector: describe(node).selector, reason});
      }
      const style = getComputedStyle(element);
      return {zIndex: style.zIndex, position: style.position, formsContext: stackingReason(element) ?? null, ancestorContexts: contexts};
    }),
  ),
  getTransform: primitive('selector', 'Computed transform, its 2D matrix parts and transformed ancestors', (selector: unknown) =>
    withElement(selector, (element) => {
      const style = getComputedStyle(element);
      let matrix: Record<string, number> | null = null;
      if (style.transform !== 'none' && typeof DOMMatrixReadOnly !== 'undefined') {
        const m = new DOMMatrixReadOnly(style.transform);
        matrix = {
          a: round(m.a),
          b: round(m.b),
          c: round(m.c),
          d: round(m.d),
          e: round(m.e),
          f: round(m.f),
          scaleX: round(Math.hypot(m.a, m.b)),
          rotateDeg: round((Math.atan2(m.b, m.a) * 180) / Math.PI),
        };
      }
      const ancestors: string[] = [];
      for (let node = element.parentElement; node; node = node.parentElement) if (getComputedStyle(node).transform !== 'none') ancestors.push(describe(node).selector);
      return {transform: style.transform, transformOrigin: style.transformOrigin, matrix, transformedAncestors: ancestors};
    }),
  ),
  getOverflow: primitive('selector', 'Overflow settings, scroll and client sizes, and whether content is clipped', (selector: unknown) => withElement(selector, overflowOf)),
  getContainer: primitive('selector', 'Offset parent, nearest scroll container and nearest positioned ancestor', (selector: unknown) =>
    withElement(selector, (element) => {
      let scroller: Element | null = null;
      let positioned: Element | null = null;
      for (let node = element.parentElement; node; node = node.parentElement) {
        const style = getComputedStyle(node);
        if (!scroller && /auto|scroll/.test(style.overflowX + style.overflowY)) scroller = node;
        if (!positioned && style.position !== 'static') positioned = node;
      }
      const offsetParent = (element as HTMLElement).offsetParent;
      return {
        offsetParent: offsetParent ? describe(offsetParent) : null,
        scrollContainer: scroller ? describe(scroller) : null,
        positionedAncestor: positioned ? describe(positioned) : null,
      };
    }),
  ),
  getAttributes: primitive('selector', 'All attributes of the first match (values cut at 500 characters)', (selector: unknown) =>
    withElement(selector, (element) => Object.fromEntries(Array.from(element.attributes).map((attribute) => [attribute.name, clip(attribute.value, 500)]))),
  ),
  getText: primitive('selector, maxLength?', 'Rendered text (innerText) of the first match, whitespace collapsed', (selector: unknown, maxLength?: unknown) =>
    withElement(selector, (element) => {
      const limit = typeof maxLength === 'number' && maxLength > 0 ? Math.min(maxLength, 20_000) : 2000;
      const text = ((element as HTMLElement).innerText ?? element.textContent ?? '').replace(/\s+/g, ' ').trim();
      return {text: text.slice(0, limit), length: text.length, truncated: text.length > limit};
    }),
  ),
  getHTML: primitive('selector, maxLength?', 'outerHTML of the first match, cut at maxLength (default 2000)', (selector: unknown, maxLength?: unknown) =>
    withElement(selector, (element) => {
      const limit = typeof maxLength === 'number' && maxLength > 0 ? Math.min(maxLength, 50_000) : 2000;
      const html = element.outerHTML;
      return {html: html.slice(0, limit), length: html.length, truncated: html.length > limit};
    }),
  ),
  getSelector: primitive('selector', 'A unique selector for the first match, and its ancestor chain', (selector: unknown) =>
    withElement(selector, (element) => {
      const chain: string[] = [];
      for (let node: Element | null = element; node && chain.length < 30; node = node.parentElement) chain.unshift(node.tagName.toLowerCase() + (node.id ? `#${node.id}` : ''));
      return {selector: describe(element).selector, chain: chain.join(' > ')};
    }),
  ),
  getEventInfo: primitive('selector', 'Inline on* handlers, pointer-events, and whether the element is disabled or inert', (selector: unknown) =>
    withElement(selector, (element) => {
      const handlers = Array.from(element.attributes)
        .filter((attribute) => attribute.name.startsWith('on'))
        .map((attribute) => attribute.name);
      const style = getComputedStyle(element);
      return {
        inlineHandlers: handlers,
        pointerEvents: style.pointerEvents,
        cursor: style.cursor,
        disabled: (element as HTMLButtonElement).disabled === true,
        inert: element.closest('[inert]') !== null,
      };
    }),
  ),
};
