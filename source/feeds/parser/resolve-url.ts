const ABSOLUTE = /^[a-z][a-z0-9+.-]*:/i;
// Links a reader would open or render; javascript:, data: and the like are dropped.
const UNSAFE = /^(?:javascript|vbscript|data|file):/i;

/** `href` made absolute against `base` when it is relative and base allows; as written otherwise. */
export function resolveUrl(href: string | undefined, base: string | undefined): string | undefined {
  const value = href?.trim();
  if (!value) return undefined;
  if (ABSOLUTE.test(value)) return UNSAFE.test(value) ? undefined : value;
  if (!base) return value;
  try {
    return new URL(value, base).href;
  } catch {
    return value;
  }
}

/** The base in effect inside an element: its xml:base against the one outside. */
export function innerBase(xmlBase: string | undefined, outer: string | undefined): string | undefined {
  if (!xmlBase) return outer;
  return resolveUrl(xmlBase, outer) ?? outer;
}

/**
 * The base for entries' relative links: the feed's xml:base when it sets one; else its site link
 * (Miniflux's rule: feeds are often served from another host or path than the site); else the
 * document URL.
 */
export function entryBase(xmlBase: string | undefined, base: string | undefined, siteLink: string | undefined): string | undefined {
  if (xmlBase) return base;
  return siteLink && ABSOLUTE.test(siteLink) ? siteLink : base;
}
