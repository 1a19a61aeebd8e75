import {escapeHtml} from '../../text/entities.js';
import {collapseSpaces, htmlToLine} from '../../text/html-text.js';
import {innerXml, type XmlDocument, type XmlNode} from './xml-tree.js';

// Reading values out of the scanned tree: the readers (RSS, Atom) share these.

/**
 * Whether `c` is in `ns`; undefined means the format's own elements: no namespace, or the
 * parent's (a feed in an unknown default namespace), never a module's look-alike (<x:description>).
 */
export function inNamespace(c: XmlNode, parent: XmlNode, ns: string | undefined): boolean {
  return ns === undefined ? c.ns === '' || c.ns === parent.ns : c.ns === ns;
}

/** First child named `local` in namespace `ns` (see inNamespace). */
export function child(node: XmlNode, local: string, ns?: string): XmlNode | undefined {
  for (const c of node.children) if (c.local === local && inNamespace(c, node, ns)) return c;
  return undefined;
}

/** First of several [local, ns] candidates that is present with a non-empty value. */
export function firstChild(node: XmlNode, candidates: ReadonlyArray<readonly [string, string?]>): XmlNode | undefined {
  for (const [local, ns] of candidates) {
    for (const c of node.children) {
      if (c.local !== local || !inNamespace(c, node, ns)) continue;
      if (c.children.length > 0 || c.text.trim() !== '') return c;
    }
  }
  return undefined;
}

/** Like firstChild, but the last present occurrence of the first candidate that has one. */
export function lastChild(node: XmlNode, candidates: ReadonlyArray<readonly [string, string?]>): XmlNode | undefined {
  for (const [local, ns] of candidates) {
    let last: XmlNode | undefined;
    for (const c of node.children) {
      if (c.local !== local || !inNamespace(c, node, ns)) continue;
      if (c.children.length > 0 || c.text.trim() !== '') last = c;
    }
    if (last) return last;
  }
  return undefined;
}

export function attr(node: XmlNode | undefined, name: string): string | undefined {
  const value = node?.attrs?.[name];
  return value === undefined ? undefined : value.trim() || undefined;
}

/** A value as one line of plain text: markup stripped, references resolved, spaces collapsed. */
export function textOf(doc: XmlDocument, node: XmlNode | undefined): string {
  if (!node) return '';
  return htmlToLine(node.children.length === 0 ? node.text : innerXml(doc, node));
}

/** A raw (not HTML) value, trimmed: ids, dates, URLs. */
export function rawOf(doc: XmlDocument, node: XmlNode | undefined): string | undefined {
  if (!node) return undefined;
  const value = node.children.length === 0 ? node.text : htmlToLine(innerXml(doc, node));
  return value.trim() || undefined;
}

/**
 * A value meant as HTML: escaped HTML (the usual RSS form) or CDATA is the text itself; markup
 * written straight into the element ("naked" XHTML) is taken as written.
 */
export function htmlOf(doc: XmlDocument, node: XmlNode | undefined): string | undefined {
  if (!node) return undefined;
  const value = node.children.length === 0 ? node.text : markupOf(doc, node);
  return value.trim() || undefined;
}

/**
 * An Atom text construct (type text/html/xhtml, Atom 0.3's mode escaped/xml/base64) as HTML:
 * text is escaped, HTML taken as is, XHTML's wrapping <div> dropped.
 */
export function atomHtml(doc: XmlDocument, node: XmlNode | undefined): string | undefined {
  if (!node) return undefined;
  const {kind, text} = atomText(doc, node);
  if (kind === 'text') return text.trim() ? escapeHtml(text.trim()) : undefined;
  return text.trim() || undefined;
}

/** An Atom text construct as one line of plain text (titles). */
export function atomPlain(doc: XmlDocument, node: XmlNode | undefined): string {
  if (!node) return '';
  const {kind, text} = atomText(doc, node);
  return kind === 'text' ? collapseSpaces(text) : htmlToLine(text);
}

function atomText(doc: XmlDocument, node: XmlNode): {kind: 'text' | 'html'; text: string} {
  const type = (node.attrs?.type ?? '').trim().toLowerCase();
  const mode = (node.attrs?.mode ?? '').trim().toLowerCase();
  const html = type === 'html' || type === 'text/html' || type === 'xhtml' || type.includes('xhtml') || mode === 'escaped';
  // Atom 0.3 says mode="base64"; Atom 1.0 base64-encodes any type that is not text or XML.
  if (mode === 'base64' || (type.includes('/') && !type.startsWith('text/') && !type.endsWith('xml'))) {
    return {kind: 'html', text: Buffer.from(node.text.trim(), 'base64').toString('utf8')};
  }
  // Markup inside the element is (X)HTML whatever the type says.
  if (node.children.length > 0) {
    const inner = unwrapDiv(node);
    // type="html" wrapped in a bare <div> anyway: the div's (escaped) text is the HTML, as feedparser reads it.
    if (inner !== node && inner.children.length === 0 && !type.includes('xhtml')) return {kind: 'html', text: inner.text};
    return {kind: 'html', text: markupOf(doc, inner)};
  }
  return {kind: html ? 'html' : 'text', text: node.text};
}

/** Atom's xhtml content sits in one <div> that is not part of it. */
function unwrapDiv(node: XmlNode): XmlNode {
  if (node.children.length === 1 && node.children[0].local === 'div' && node.text.trim() === '') return node.children[0];
  return node;
}

/** Inner markup as HTML: CDATA markers dropped, `xhtml:` prefixes removed. */
function markupOf(doc: XmlDocument, node: XmlNode): string {
  let markup = innerXml(doc, node);
  if (markup.includes('<![CDATA[')) markup = markup.replace(/<!\[CDATA\[([\s\S]*?)(?:\]\]>|$)/g, (_, inner: string) => escapeHtml(inner));
  if (/<\/?[A-Za-z][\w.-]*:/.test(markup)) markup = markup.replace(/<(\/?)[A-Za-z][\w.-]*:/g, '<$1');
  return markup;
}

/** media:description, direct or in media:group (YouTube's Atom feeds), as HTML (type="plain" is the default). */
export function mediaDescription(doc: XmlDocument, item: XmlNode): string | undefined {
  const group = child(item, 'group', 'media');
  const node = child(item, 'description', 'media') ?? (group ? child(group, 'description', 'media') : undefined);
  if (!node) return undefined;
  const value = htmlOf(doc, node);
  if (!value) return undefined;
  return (node.attrs?.type ?? '').toLowerCase() === 'html' ? value : escapeHtml(value);
}
