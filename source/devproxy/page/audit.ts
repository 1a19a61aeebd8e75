/** The accessibility audit's checks, each a function answering its findings; a11y.ts exposes them one by one and together. */
import {accessibleName, roleOf} from './accessible-name.js';
import {textContrast} from './color.js';
import {allElements, describe, isRendered, type ElementSummary} from './element.js';

export interface Finding {
  rule: string;
  severity: 'error' | 'warning' | 'info';
  message: string;
  element?: ElementSummary;
}

export function imagesWithoutAlt(): Finding[] {
  return Array.from(document.querySelectorAll('img:not([alt]), input[type=image]:not([alt]), area[href]:not([alt])'))
    .filter((element) => !/^(presentation|none)$/.test(element.getAttribute('role') ?? '') && element.getAttribute('aria-hidden') !== 'true')
    .filter((element) => !accessibleName(element).name)
    .map((element) => ({rule: 'image-alt', severity: 'error', message: 'image has no alt text', element: describe(element)}));
}

export function inputsWithoutLabels(): Finding[] {
  return Array.from(document.querySelectorAll('input, select, textarea'))
    .filter((element) => !/^(hidden|submit|reset|button|image)$/.test((element as HTMLInputElement).type ?? ''))
    .filter(isRendered)
    .filter((element) => {
      const {source} = accessibleName(element);
      return source === 'none' || source === 'placeholder';
    })
    .map((element) => ({
      rule: 'input-label',
      severity: 'error',
      message: accessibleName(element).source === 'placeholder' ? 'form field is named only by its placeholder' : 'form field has no label',
      element: describe(element),
    }));
}

export function buttonsWithoutNames(): Finding[] {
  return Array.from(document.querySelectorAll('button, [role=button], input[type=button], input[type=submit], input[type=reset]'))
    .filter(isRendered)
    .filter((element) => !accessibleName(element).name)
    .map((element) => ({rule: 'button-name', severity: 'error', message: 'button has no accessible name', element: describe(element)}));
}

export function linksWithoutNames(): Finding[] {
  return Array.from(document.querySelectorAll('a[href]'))
    .filter(isRendered)
    .filter((element) => !accessibleName(element).name)
    .map((element) => ({rule: 'link-name', severity: 'error', message: 'link has no accessible name', element: describe(element)}));
}

function hasOwnText(element: Element): boolean {
  for (const node of Array.from(element.childNodes)) if (node.nodeType === 3 && (node.textContent ?? '').trim() !== '') return true;
  return false;
}

export function lowContrast(): Finding[] {
  const findings: Finding[] = [];
  for (const element of allElements()) {
    if (/^(SCRIPT|STYLE|NOSCRIPT|TEMPLATE|OPTION)$/.test(element.tagName) || !hasOwnText(element) || !isRendered(element)) continue;
    const result = textContrast(element);
    if (!result || result.aa) continue;
    findings.push({
      rule: 'color-contrast',
      severity: result.backgroundImage ? 'warning' : 'error',
      message: `contrast ${result.ratio}:1 (${result.foreground} on ${result.background}) is below ${result.required}:1`,
      element: describe(element),
    });
    if (findings.length >= 200) break;
  }
  return findings;
}

export function headingOrder(): Finding[] {
  const headings = Array.from(document.querySelectorAll('h1, h2, h3, h4, h5, h6, [role=heading][aria-level]')).filter(isRendered);
  const findings: Finding[] = [];
  let previous = 0;
  for (const heading of headings) {
    const level = /^H[1-6]$/.test(heading.tagName) ? Number(heading.tagName[1]) : Number(heading.getAttribute('aria-level')) || 2;
    if (previous > 0 && level > previous + 1)
      findings.push({rule: 'heading-order', severity: 'warning', message: `heading level jumps from h${previous} to h${level}`, element: describe(heading)});
    if (!accessibleName(heading).name) findings.push({rule: 'empty-heading', severity: 'error', message: 'heading has no text', element: describe(heading)});
    previous = level;
  }
  const h1 = headings.filter((heading) => heading.tagName === 'H1').length;
  if (headings.length > 0 && h1 === 0) findings.push({rule: 'page-has-heading-one', severity: 'warning', message: 'page has no h1'});
  if (h1 > 1) findings.push({rule: 'single-h1', severity: 'info', message: `page has ${h1} h1 headings`});
  return findings;
}

export function duplicateIds(): Finding[] {
  const seen = new Map<string, Element[]>();
  for (const element of Array.from(document.querySelectorAll('[id]'))) {
    const list = seen.get(element.id) ?? [];
    list.push(element);
    seen.set(element.id, list);
  }
  return [...seen.entries()]
    .filter(([, elements]) => elements.length > 1)
    .map(([id, elements]) => ({rule: 'duplicate-id', severity: 'error', message: `id "${id}" is used by ${elements.length} elements`, element: describe(elements[1])}));
}

export function landmarks(): Array<{role: string; label: string; element: ElementSummary}> {
  return allElements()
    .map((element) => ({element, role: roleOf(element)}))
    .filter(({role}) => role !== null && /^(banner|main|navigation|complementary|contentinfo|region|search|form)$/.test(role))
    .filter(({role, element}) => role !== 'form' || accessibleName(element).name !== '')
    .map(({element, role}) => ({role: role!, label: accessibleName(element).name, element: describe(element)}));
}

export function landmarkFindings(): Finding[] {
  const found = landmarks();
  const findings: Finding[] = [];
  const mains = found.filter((landmark) => landmark.role === 'main').length;
  if (mains === 0) findings.push({rule: 'landmark-main', severity: 'warning', message: 'page has no main landmark'});
  if (mains > 1) findings.push({rule: 'landmark-one-main', severity: 'warning', message: `page has ${mains} main landmarks`});
  return findings;
}

export function documentFindings(): Finding[] {
  const findings: Finding[] = [];
  if (!document.documentElement.getAttribute('lang')) findings.push({rule: 'html-lang', severity: 'error', message: 'html element has no lang attribute'});
  if (!document.title.trim()) findings.push({rule: 'document-title', severity: 'error', message: 'document has no title'});
  const viewport = document.querySelector('meta[name=viewport]')?.getAttribute('content') ?? '';
  if (/user-scalable\s*=\s*no|maximum-scale\s*=\s*1(\.0)?\b/.test(viewport)) findings.push({rule: 'meta-viewport', severity: 'warning', message: 'viewport meta blocks zooming'});
  return findings;
}

export function ariaFindings(): Finding[] {
  const findings: Finding[] = [];
  for (const element of Array.from(document.querySelectorAll('[aria-hidden=true]'))) {
    const focusable =
      element.matches('a[href], button, input, select, textarea, [tabindex]:not([tabindex="-1"])') ||
      element.querySelector('a[href], button, input, select, textarea, [tabindex]:not([tabindex="-1"])');
    if (focusable) findings.push({rule: 'aria-hidden-focus', severity: 'error', message: 'aria-hidden content holds a focusable element', element: describe(element)});
  }
  for (const element of Array.from(document.querySelectorAll('[tabindex]'))) {
    if ((element as HTMLElement).tabIndex > 0)
      findings.push({rule: 'tabindex', severity: 'warning', message: `positive tabindex ${(element as HTMLElement).tabIndex} changes the tab order`, element: describe(element)});
  }
  return findings;
}

/** Every check by name: the audit runs them all, or the ones asked for. */
export const CHECKS: Record<string, () => Finding[]> = {
  'image-alt': imagesWithoutAlt,
  'input-label': inputsWithoutLabels,
  'button-name': buttonsWithoutNames,
  'link-name': linksWithoutNames,
  'color-contrast': lowContrast,
  'heading-order': headingOrder,
  'duplicate-id': duplicateIds,
  landmarks: landmarkFindings,
  document: documentFindings,
  aria: ariaFindings,
};
