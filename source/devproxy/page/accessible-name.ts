/**
 * Roles and accessible names, a practical subset of WAI-ARIA's computation (accname 1.2): labelledby,
 * aria-label, native labels, alt, text content, title. Enough to spot a control a screen reader
 * announces with no name.
 */
import {isRendered} from './element.js';

const INPUT_ROLES: Record<string, string> = {
  button: 'button',
  submit: 'button',
  reset: 'button',
  image: 'button',
  checkbox: 'checkbox',
  radio: 'radio',
  range: 'slider',
  number: 'spinbutton',
  search: 'searchbox',
  email: 'textbox',
  tel: 'textbox',
  text: 'textbox',
  url: 'textbox',
  password: 'textbox',
};

const TAG_ROLES: Record<string, string> = {
  article: 'article',
  aside: 'complementary',
  button: 'button',
  dialog: 'dialog',
  form: 'form',
  h1: 'heading',
  h2: 'heading',
  h3: 'heading',
  h4: 'heading',
  h5: 'heading',
  h6: 'heading',
  hr: 'separator',
  li: 'listitem',
  main: 'main',
  nav: 'navigation',
  ol: 'list',
  ul: 'list',
  option: 'option',
  progress: 'progressbar',
  section: 'region',
  select: 'combobox',
  table: 'table',
  textarea: 'textbox',
  td: 'cell',
  th: 'columnheader',
  tr: 'row',
  summary: 'button',
  details: 'group',
  fieldset: 'group',
  figure: 'figure',
  output: 'status',
};

export function roleOf(element: Element): string | null {
  const explicit = element.getAttribute('role')?.trim().split(/\s+/)[0];
  if (explicit) return explicit;
  const tag = element.tagName.toLowerCase();
  if (tag === 'a' || tag === 'area') return element.hasAttribute('href') ? 'link' : null;
  if (tag === 'img') return element.getAttribute('alt') === '' ? 'presentation' : 'img';
  if (tag === 'input') return INPUT_ROLES[(element as HTMLInputElement).type] ?? (element.getAttribute('type') === 'hidden' ? null : 'textbox');
  if (tag === 'header') return element.closest('article, aside, main, nav, section') ? null : 'banner';
  if (tag === 'footer') return element.closest('article, aside, main, nav, section') ? null : 'contentinfo';
  if (tag === 'section') return element.hasAttribute('aria-label') || element.hasAttribute('aria-labelledby') ? 'region' : null;
  return TAG_ROLES[tag] ?? null;
}

function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Text a subtree contributes to a name: text nodes plus alt and aria-label of its elements, skipping hidden parts. */
function subtreeText(node: Node, depth = 0): string {
  if (depth > 20) return '';
  if (node.nodeType === 3) return node.textContent ?? '';
  if (node.nodeType !== 1) return '';
  const element = node as Element;
  if (element.getAttribute('aria-hidden') === 'true' || /^(SCRIPT|STYLE|TEMPLATE|NOSCRIPT)$/.test(element.tagName)) return '';
  if (element instanceof HTMLElement && element !== document.body && !isRendered(element) && element.tagName !== 'OPTION') return '';
  const label = element.getAttribute('aria-label');
  if (label && label.trim()) return ` ${label} `;
  if (element.tagName === 'IMG') return ` ${element.getAttribute('alt') ?? ''} `;
  let text = '';
  for (const child of Array.from(element.childNodes)) text += subtreeText(child, depth + 1);
  return /^(DIV|P|LI|H[1-6]|BR|TD|TH|TR|SECTION|ARTICLE)$/.test(element.tagName) ? ` ${text} ` : text;
}

const NAME_FROM_CONTENT = /^(button|link|heading|cell|columnheader|rowheader|option|tab|menuitem|checkbox|radio|switch|treeitem|listitem|tooltip)$/;

export interface AccessibleName {
  name: string;
  source: 'aria-labelledby' | 'aria-label' | 'label' | 'alt' | 'value' | 'content' | 'title' | 'placeholder' | 'none';
}

export function accessibleName(element: Element): AccessibleName {
  const labelledBy = element.getAttribute('aria-labelledby');
  if (labelledBy) {
    const text = collapse(
      labelledBy
        .split(/\s+/)
        .map((id) => document.getElementById(id))
        .filter((found): found is HTMLElement => found !== null)
        .map((found) => subtreeText(found))
        .join(' '),
    );
    if (text) return {name: text, source: 'aria-labelledby'};
  }
  const label = collapse(element.getAttribute('aria-label') ?? '');
  if (label) return {name: label, source: 'aria-label'};
  const tag = element.tagName;
  if (tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA' || tag === 'METER' || tag === 'PROGRESS' || tag === 'OUTPUT') {
    const input = element as HTMLInputElement;
    if (tag === 'INPUT' && /^(submit|reset|button)$/.test(input.type)) {
      const value = collapse(input.value || (input.type === 'submit' ? 'Submit' : input.type === 'reset' ? 'Reset' : ''));
      if (value) return {name: value, source: 'value'};
    }
    if (tag === 'INPUT' && input.type === 'image') {
      const alt = collapse(element.getAttribute('alt') ?? '');
      if (alt) return {name: alt, source: 'alt'};
    }
    const labels = input.labels ? Array.from(input.labels) : [];
    const text = collapse(labels.map((found) => subtreeText(found)).join(' '));
    if (text) return {name: text, source: 'label'};
  }
  if (tag === 'IMG' || tag === 'AREA') {
    const alt = collapse(element.getAttribute('alt') ?? '');
    if (alt) return {name: alt, source: 'alt'};
  }
  const role = roleOf(element);
  if (role && NAME_FROM_CONTENT.test(role)) {
    const text = collapse(subtreeText(element));
    if (text) return {name: text, source: 'content'};
  }
  const title = collapse(element.getAttribute('title') ?? '');
  if (title) return {name: title, source: 'title'};
  const placeholder = collapse(element.getAttribute('placeholder') ?? '');
  if (placeholder) return {name: placeholder, source: 'placeholder'};
  return {name: '', source: 'none'};
}

const FOCUSABLE = 'a[href], area[href], button, input, select, textarea, iframe, summary, [tabindex], [contenteditable]:not([contenteditable="false"])';

/** Elements reached by Tab, in the order Tab reaches them (positive tabindex first, then document order). */
export function tabOrder(): Element[] {
  const candidates = Array.from(document.querySelectorAll(FOCUSABLE)).filter((element) => {
    const html = element as HTMLElement;
    if ((html as HTMLButtonElement).disabled) return false;
    if (element.tagName === 'INPUT' && (element as HTMLInputElement).type === 'hidden') return false;
    if (html.tabIndex < 0) return false;
    if (element.closest('[inert]')) return false;
    return isRendered(element);
  });
  const positive = candidates.filter((element) => (element as HTMLElement).tabIndex > 0).sort((a, b) => (a as HTMLElement).tabIndex - (b as HTMLElement).tabIndex);
  return [...positive, ...candidates.filter((element) => (element as HTMLElement).tabIndex === 0)];
}
