/** Accessibility primitives: roles, names, contrast, tab order, headings, landmarks and the audit. */
import {accessibleName, roleOf, tabOrder} from './accessible-name.js';
import {buttonsWithoutNames, CHECKS, duplicateIds, headingOrder, imagesWithoutAlt, inputsWithoutLabels, landmarks, linksWithoutNames, lowContrast, type Finding} from './audit.js';
import {contrast, hex, parseColor, textContrast} from './color.js';
import {clip, describe, isRendered, limitOf, withElement} from './element.js';
import {failure, primitive} from './primitive.js';

function report(findings: Finding[], limit?: unknown) {
  const max = limitOf(limit, 50);
  return {count: findings.length, findings: findings.slice(0, max), truncated: findings.length > max};
}

export const a11y = {
  getA11yInfo: primitive('selector', 'Role, accessible name and its source, description, states and focusability of the first match', (selector: unknown) =>
    withElement(selector, (element) => {
      const html = element as HTMLElement;
      const describedBy = (element.getAttribute('aria-describedby') ?? '')
        .split(/\s+/)
        .map((id) => (id ? document.getElementById(id)?.textContent : ''))
        .filter(Boolean)
        .join(' ');
      const states: Record<string, string> = {};
      for (const attribute of Array.from(element.attributes))
        if (attribute.name.startsWith('aria-') && !/^aria-(label|labelledby|describedby)$/.test(attribute.name)) states[attribute.name] = attribute.value;
      return {
        role: roleOf(element),
        ...accessibleName(element),
        description: clip(describedBy, 200),
        states,
        focusable: html.tabIndex >= 0 && !(html as HTMLButtonElement).disabled,
        tabIndex: html.tabIndex,
        hidden: element.closest('[aria-hidden=true]') !== null || !isRendered(element),
        element: describe(element),
      };
    }),
  ),
  getAccessibleName: primitive('selector', 'The accessible name a screen reader announces for the first match, and where it comes from', (selector: unknown) =>
    withElement(selector, (element) => accessibleName(element)),
  ),
  getRole: primitive('selector', 'The explicit or implicit ARIA role of the first match', (selector: unknown) =>
    withElement(selector, (element) => ({role: roleOf(element), explicit: element.hasAttribute('role')})),
  ),
  getContrast: primitive('selector', 'WCAG contrast of the text of the first match against its effective background, with AA/AAA verdicts', (selector: unknown) =>
    withElement(selector, (element) => textContrast(element) ?? failure('the element has no parseable text colour')),
  ),
  contrastRatio: primitive('foreground, background', 'WCAG contrast ratio of two CSS colours, e.g. ("#777", "white") → 4.48', (foreground: unknown, background: unknown) => {
    const fg = parseColor(foreground as string);
    const bg = parseColor(background as string);
    if (!fg || !bg) return failure('both arguments must be CSS colours, e.g. "#333" or "rgb(0 0 0)"');
    const ratio = contrast(fg, bg);
    return {ratio, foreground: hex(fg), background: hex(bg), aaNormal: ratio >= 4.5, aaLarge: ratio >= 3, aaaNormal: ratio >= 7, aaaLarge: ratio >= 4.5};
  }),
  getTabOrder: primitive('limit?', 'Focusable elements in the order Tab visits them, with their names', (limit?: unknown) => {
    const order = tabOrder();
    const max = limitOf(limit, 100);
    return {
      count: order.length,
      order: order
        .slice(0, max)
        .map((element, index) => ({index, tabIndex: (element as HTMLElement).tabIndex, name: accessibleName(element).name, role: roleOf(element), ...describe(element)})),
      truncated: order.length > max,
    };
  }),
  getFocusInfo: primitive('', 'The element that has focus now, its name, and whether focus is visible on it', () => {
    const active = document.activeElement;
    if (!active || active === document.body) return {focused: null};
    return {focused: describe(active), name: accessibleName(active).name, role: roleOf(active), focusVisible: active.matches(':focus-visible')};
  }),
  getHeadings: primitive('', 'The heading outline: level, text and selector of each heading in order', () => ({
    headings: Array.from(document.querySelectorAll('h1, h2, h3, h4, h5, h6'))
      .filter(isRendered)
      .slice(0, 200)
      .map((heading) => ({level: Number(heading.tagName[1]), text: clip(accessibleName(heading).name, 120), selector: describe(heading).selector})),
  })),
  getLandmarks: primitive('', 'Landmark regions (banner, main, navigation, …) with their labels', () => ({landmarks: landmarks().slice(0, 100)})),
  findImagesWithoutAlt: primitive('limit?', 'Images, image inputs and areas with no alt text and no other name', (limit?: unknown) => report(imagesWithoutAlt(), limit)),
  findInputsWithoutLabels: primitive('limit?', 'Form fields with no label (or only a placeholder)', (limit?: unknown) => report(inputsWithoutLabels(), limit)),
  findButtonsWithoutNames: primitive('limit?', 'Buttons a screen reader announces with no name', (limit?: unknown) => report(buttonsWithoutNames(), limit)),
  findLinksWithoutNames: primitive('limit?', 'Links with no accessible name (icon links without a label)', (limit?: unknown) => report(linksWithoutNames(), limit)),
  findLowContrast: primitive('limit?', 'Text below the WCAG AA contrast for its size', (limit?: unknown) => report(lowContrast(), limit)),
  findDuplicateIds: primitive('limit?', 'ids used by more than one element', (limit?: unknown) => report(duplicateIds(), limit)),
  checkHeadingOrder: primitive('', 'Skipped heading levels, empty headings, missing or repeated h1', () => report(headingOrder())),
  auditAccessibility: primitive(
    'options? {checks?: string[], limit?: number}',
    `Runs the accessibility checks (${Object.keys(CHECKS).join(', ')}) and answers counts per rule and the findings`,
    (options?: unknown) => {
      const asked = typeof options === 'object' && options !== null ? (options as {checks?: unknown; limit?: unknown}) : {};
      const names = Array.isArray(asked.checks) ? asked.checks.filter((name): name is string => typeof name === 'string') : Object.keys(CHECKS);
      const unknown = names.filter((name) => !(name in CHECKS));
      if (unknown.length > 0) return failure(`unknown check(s) ${unknown.join(', ')}; known: ${Object.keys(CHECKS).join(', ')}`);
      const findings = names.flatMap((name) => CHECKS[name]());
      const byRule: Record<string, number> = {};
      for (const finding of findings) byRule[finding.rule] = (byRule[finding.rule] ?? 0) + 1;
      const severities = {error: 0, warning: 0, info: 0};
      for (const finding of findings) severities[finding.severity]++;
      return {checks: names, ...severities, byRule, ...report(findings, asked.limit)};
    },
  ),
};
