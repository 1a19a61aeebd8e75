/**
 * The Node side of the page script: the bundled IIFE the proxy injects into every HTML page, and the
 * reference of window.__devtool (`workbench proxy primitives`), generated from the same declarations
 * the page is built from (page/catalog.ts).
 */
import bundledScript from 'virtual:workbench-page-script';
import {CATALOG} from './page/catalog.js';

/** The page script: one minified IIFE, safe to inline in a <script> element (no `</script`). */
export function pageScript(): string {
  return bundledScript;
}

export interface PrimitiveReference {
  name: string;
  group: string;
  params: string;
  summary: string;
}

/** Every function on window.__devtool, in reference order. */
export function primitives(): PrimitiveReference[] {
  return CATALOG.flatMap((group) => Object.entries(group.primitives).map(([name, entry]) => ({name, group: group.name, params: entry.params, summary: entry.summary})));
}

/** The reference as Markdown: one section per group, one line per primitive. */
export function primitivesReference(): string {
  const lines = [
    '# window.__devtool',
    '',
    `${primitives().length} functions in every page served through a workbench proxy. Call them with \`workbench proxy exec <id> --code "__devtool.name(args)"\`;`,
    'each answers JSON data (elements as {selector, tag, id, classes, text, rect}); bad arguments answer {error}; the wait* and some performance ones are promises, which exec awaits.',
  ];
  for (const group of CATALOG) {
    lines.push('', `## ${group.title}`, '');
    for (const [name, entry] of Object.entries(group.primitives)) lines.push(`- \`${name}(${entry.params})\` — ${entry.summary}`);
  }
  return `${lines.join('\n')}\n`;
}
