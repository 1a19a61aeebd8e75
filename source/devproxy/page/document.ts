/** The page as a whole: identity, DOM complexity, meta tags, forms, links, images, storage keys and media queries. */
import {accessibleName} from './accessible-name.js';
import {allElements, clip, describe, isRendered, limitOf} from './element.js';
import {failure, primitive} from './primitive.js';

function listOf<T>(items: T[], limit: unknown, fallback = 50) {
  const max = limitOf(limit, fallback);
  return {count: items.length, items: items.slice(0, max), truncated: items.length > max};
}

function keysOf(storage: () => Storage) {
  try {
    const store = storage();
    const keys: Array<{key: string; bytes: number}> = [];
    for (let index = 0; index < store.length && keys.length < 200; index++) {
      const key = store.key(index);
      if (key !== null) keys.push({key, bytes: (store.getItem(key) ?? '').length * 2});
    }
    return {count: store.length, keys};
  } catch (error) {
    return {error: `not readable: ${(error as Error).message}`};
  }
}

export const documentInfo = {
  getPageInfo: primitive('', 'URL, title, ready state, language, charset, doctype, referrer and element count', () => ({
    url: location.href,
    title: document.title,
    readyState: document.readyState,
    lang: document.documentElement.lang || null,
    charset: document.characterSet,
    doctype: document.doctype ? document.doctype.name : null,
    compatMode: document.compatMode,
    referrer: document.referrer || null,
    elements: document.getElementsByTagName('*').length,
    visibilityState: document.visibilityState,
    hasFocus: document.hasFocus(),
  })),
  getDomComplexity: primitive('', 'Node and element counts, deepest nesting (with where), widest parent, and per-tag totals', () => {
    let deepest = {depth: 0, element: document.documentElement as Element};
    let widest = {children: 0, element: document.documentElement as Element};
    const tags: Record<string, number> = {};
    const depthOf = new Map<Element, number>();
    for (const element of allElements()) {
      const depth = (element.parentElement ? (depthOf.get(element.parentElement) ?? 0) : 0) + 1;
      depthOf.set(element, depth);
      if (depth > deepest.depth) deepest = {depth, element};
      if (element.children.length > widest.children) widest = {children: element.children.length, element};
      const tag = element.tagName.toLowerCase();
      tags[tag] = (tags[tag] ?? 0) + 1;
    }
    let nodes = 0;
    const walker = document.createTreeWalker(document, NodeFilter.SHOW_ALL);
    while (walker.nextNode()) nodes++;
    const topTags = Object.fromEntries(
      Object.entries(tags)
        .sort((a, b) => b[1] - a[1])
        .slice(0, 15),
    );
    return {
      nodes,
      elements: depthOf.size,
      maxDepth: deepest.depth,
      deepest: describe(deepest.element).selector,
      maxChildren: widest.children,
      widest: describe(widest.element).selector,
      tags: topTags,
      // Lighthouse's thresholds for an excessive DOM.
      excessive: depthOf.size > 1400 || deepest.depth > 32 || widest.children > 60,
    };
  }),
  getMeta: primitive('', 'meta tags (name/property → content), canonical link, viewport and theme colour', () => {
    const meta: Record<string, string> = {};
    for (const tag of Array.from(document.querySelectorAll('meta')).slice(0, 100)) {
      const key = tag.getAttribute('name') ?? tag.getAttribute('property') ?? tag.getAttribute('http-equiv') ?? (tag.hasAttribute('charset') ? 'charset' : null);
      if (key) meta[key] = clip(tag.getAttribute('content') ?? tag.getAttribute('charset') ?? '', 300);
    }
    return {
      meta,
      canonical: document.querySelector('link[rel=canonical]')?.getAttribute('href') ?? null,
      icons: Array.from(document.querySelectorAll('link[rel~=icon]')).map((link) => link.getAttribute('href')),
    };
  }),
  getForms: primitive('', 'Each form: action, method, and its fields with type, name, label, required and validity', () => ({
    forms: Array.from(document.forms)
      .slice(0, 30)
      .map((form) => ({
        selector: describe(form).selector,
        action: form.getAttribute('action') ?? '',
        method: (form.getAttribute('method') ?? 'get').toLowerCase(),
        valid: form.checkValidity(),
        fields: Array.from(form.elements)
          .slice(0, 100)
          .map((field) => {
            const input = field as HTMLInputElement;
            return {
              tag: field.tagName.toLowerCase(),
              type: input.type,
              name: input.name || null,
              label: accessibleName(field).name,
              required: input.required === true,
              valid: typeof input.checkValidity === 'function' ? input.validity.valid : true,
              validationMessage: input.validationMessage || undefined,
              disabled: input.disabled === true,
            };
          }),
      })),
  })),
  getLinks: primitive('limit?', 'Links summarised: internal/external, empty or javascript: hrefs, new-tab links without noopener', (limit?: unknown) => {
    const links = Array.from(document.querySelectorAll('a[href], area[href]')) as HTMLAnchorElement[];
    const internal = links.filter((link) => link.origin === location.origin).length;
    const problems = links
      .map((link) => {
        const href = link.getAttribute('href') ?? '';
        const rel = (link.getAttribute('rel') ?? '').toLowerCase();
        const issue =
          href.trim() === '' || href === '#'
            ? 'empty href'
            : /^javascript:/i.test(href)
              ? 'javascript: href'
              : link.target === '_blank' && !/noopener|noreferrer/.test(rel) && link.origin !== location.origin
                ? 'target _blank without noopener'
                : !accessibleName(link).name
                  ? 'no accessible name'
                  : undefined;
        return issue ? {issue, href: clip(href, 200), element: describe(link)} : undefined;
      })
      .filter((problem) => problem !== undefined);
    return {total: links.length, internal, external: links.length - internal, ...listOf(problems, limit)};
  }),
  getImages: primitive('limit?', 'Images: natural vs rendered size, loading mode, broken ones and oversized downloads', (limit?: unknown) => {
    const images = Array.from(document.images).map((image) => {
      const rect = image.getBoundingClientRect();
      return {
        src: clip(image.currentSrc || image.src, 200),
        alt: image.getAttribute('alt'),
        natural: {width: image.naturalWidth, height: image.naturalHeight},
        rendered: {width: Math.round(rect.width), height: Math.round(rect.height)},
        loading: image.loading || 'eager',
        broken: image.complete && image.naturalWidth === 0 && (image.currentSrc || image.src) !== '',
        oversized: rect.width > 0 && image.naturalWidth > rect.width * window.devicePixelRatio * 2,
        selector: describe(image).selector,
      };
    });
    return {broken: images.filter((image) => image.broken).length, oversized: images.filter((image) => image.oversized).length, ...listOf(images, limit)};
  }),
  getStorage: primitive('', 'localStorage and sessionStorage keys with sizes, and cookie names (never values)', () => ({
    localStorage: keysOf(() => window.localStorage),
    sessionStorage: keysOf(() => window.sessionStorage),
    cookies: document.cookie
      .split(';')
      .map((cookie) => cookie.split('=')[0].trim())
      .filter(Boolean),
  })),
  getMediaQueries: primitive('', 'Common media features right now (colour scheme, reduced motion, pointer, hover, widths) and the stylesheets’ own breakpoints', () => {
    const features = [
      '(prefers-color-scheme: dark)',
      '(prefers-reduced-motion: reduce)',
      '(prefers-contrast: more)',
      '(pointer: coarse)',
      '(hover: hover)',
      '(orientation: portrait)',
      'print',
    ];
    const breakpoints = new Set<string>();
    for (const sheet of Array.from(document.styleSheets)) {
      let rules: CSSRuleList;
      try {
        rules = sheet.cssRules;
      } catch (_crossOrigin) {
        continue;
      }
      for (const rule of Array.from(rules)) if (rule instanceof CSSMediaRule && breakpoints.size < 100) breakpoints.add(rule.media.mediaText);
    }
    return {
      width: window.innerWidth,
      matches: Object.fromEntries(features.map((query) => [query, window.matchMedia(query).matches])),
      stylesheetQueries: [...breakpoints].map((query) => ({query, matches: window.matchMedia(query).matches})),
    };
  }),
  matchMedia: primitive('query', 'Whether a media query matches now, e.g. "(min-width: 768px)"', (query: unknown) => {
    if (typeof query !== 'string' || query.trim() === '') return failure('query must be a media query string');
    const list = window.matchMedia(query);
    if (list.media === 'not all' && !/not all/.test(query)) return failure(`invalid media query ${JSON.stringify(query)}`);
    return {query: list.media, matches: list.matches};
  }),
  getStylesheets: primitive('', 'Stylesheets: href or inline, rule counts, media, and which are cross-origin (unreadable)', () => ({
    sheets: Array.from(document.styleSheets)
      .slice(0, 100)
      .map((sheet) => {
        let rules: number | null;
        try {
          rules = sheet.cssRules.length;
        } catch (_crossOrigin) {
          rules = null;
        }
        return {href: sheet.href, inline: sheet.href === null, rules, media: sheet.media.mediaText || null, disabled: sheet.disabled};
      }),
  })),
  getScripts: primitive('', 'Script elements: src or inline size, type, async/defer/module', () => ({
    scripts: Array.from(document.scripts)
      .slice(0, 200)
      .map((script) => ({
        src: script.src || null,
        inlineBytes: script.src ? 0 : (script.textContent ?? '').length,
        type: script.type || 'text/javascript',
        async: script.async,
        defer: script.defer,
      })),
  })),
  getHiddenContent: primitive('limit?', 'Elements in the DOM with text that are not rendered (display none, hidden), e.g. collapsed menus or stale views', (limit?: unknown) =>
    listOf(
      Array.from(document.body?.querySelectorAll('*') ?? [])
        .filter((element) => !/^(SCRIPT|STYLE|TEMPLATE|NOSCRIPT)$/.test(element.tagName) && (element.textContent ?? '').trim() !== '')
        .filter((element) => !isRendered(element) && (element.parentElement === null || isRendered(element.parentElement)))
        .map((element) => ({selector: describe(element).selector, tag: element.tagName.toLowerCase(), text: clip(element.textContent ?? '')})),
      limit,
    ),
  ),
};
