/**
 * Entities a feed declares in its DOCTYPE's internal subset (`<!ENTITY id "tag:example.com,">`),
 * expanded the way feedparser does it, with bounds it lacks:
 * - only "safe" values are taken: plain text (no `&` nor `<`) or one character reference
 *   (`&#160;`). A value that refers to other entities is the shape of every entity bomb (billion
 *   laughs) and is never expanded; neither are external (SYSTEM/PUBLIC) nor parameter entities;
 * - XML's own five (amp, lt, gt, quot, apos) cannot be redeclared;
 * - all expansions of a document together add at most EXPANSION_BUDGET characters (a big value
 *   referenced many times is the quadratic bomb); references past the budget are left as written.
 * An undeclared or refused reference stays as it was written, as before.
 */
export const EXPANSION_BUDGET = 1_000_000;
const MAX_DECLARATIONS = 1_000;

const DECLARATION = /<!ENTITY\s+([A-Za-z_][\w.:-]*)\s+(?:"([^"]*)"|'([^']*)')\s*>/g;
const SAFE_VALUE = /^(?:[^&<]*|&#(?:\d+|x[0-9a-fA-F]+);)$/;
const PREDEFINED = new Set(['amp', 'lt', 'gt', 'quot', 'apos']);
const REFERENCE = /&([A-Za-z_][\w.:-]*);/g;

export type ExpandEntities = (text: string) => string;

/** An expander for the entities declared in `subset`, or undefined when it declares none we take. */
export function internalEntities(subset: string): ExpandEntities | undefined {
  const values = new Map<string, string>();
  const declarations = subset.includes('<!--') ? subset.replace(/<!--[\s\S]*?(?:-->|$)/g, '') : subset;
  let count = 0;
  for (const match of declarations.matchAll(DECLARATION)) {
    if (++count > MAX_DECLARATIONS) break;
    const [, name, double, single] = match;
    const value = double ?? single;
    // The first declaration of a name binds (XML 1.0, 4.2).
    if (PREDEFINED.has(name) || values.has(name) || !SAFE_VALUE.test(value)) continue;
    values.set(name, value);
  }
  if (values.size === 0) return undefined;
  let budget = EXPANSION_BUDGET;
  return (text) => {
    if (budget <= 0 || text.indexOf('&') === -1) return text;
    return text.replace(REFERENCE, (reference, name: string) => {
      const value = values.get(name);
      if (value === undefined || value.length > budget) return reference;
      budget -= value.length;
      return value;
    });
  };
}
