import {createHash} from 'node:crypto';
import type {ParsedItem} from '../../types.js';
import {safeHtml} from '../../safe-html.js';
import type {ScoredStatus, SocialStatus, TestedStatus} from '../types.js';

const TITLE_CHARS = 100;

/**
 * A kept status as the reader stores an entry: its text for a title, its HTML (or text) as content.
 * The network's HTML comes from whoever posted it (any Mastodon server): it is sanitised here, once,
 * so no face has to trust it (no script, event handler or javascript: link; links made absolute).
 */
export function statusItem(status: SocialStatus): ParsedItem {
  return {
    guid: status.key,
    title: statusTitle(status),
    link: status.url,
    author: status.author.name ? `${status.author.name} (@${status.author.handle})` : `@${status.author.handle}`,
    published: status.createdAt,
    updated: status.editedAt ?? undefined,
    content: status.html ? safeHtml(status.html, status.url) : textHtml(status.text),
    categories: status.tags,
  };
}

/** Reddit's title, else the first words of the text (cut at a word), else who posted it. */
export function statusTitle(status: SocialStatus): string {
  if (status.title) return status.title;
  const text = status.text.replace(/\s+/g, ' ').trim();
  if (!text) return `A post by @${status.author.handle}`;
  if (text.length <= TITLE_CHARS) return text;
  const cut = text.slice(0, TITLE_CHARS);
  const space = cut.lastIndexOf(' ');
  return `${(space > 40 ? cut.slice(0, space) : cut).replace(/[\s,.;:!?-]+$/, '')}…`;
}

export function textHtml(text: string): string {
  return text
    .split(/\n{2,}/)
    .map((paragraph) => `<p>${escapeHtml(paragraph).replace(/\n/g, '<br>')}</p>`)
    .join('');
}

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** What an edit changes: the hash of the title, text and HTML. */
export function contentHash(status: SocialStatus): string {
  return createHash('sha256')
    .update(`${status.title ?? ''}\u0000${status.text}\u0000${status.html ?? ''}`)
    .digest('base64url')
    .slice(0, 43);
}

/** A status as the test answer and the faces show it. */
export function testedStatus(scored: ScoredStatus): TestedStatus {
  const {status} = scored;
  const text = `${status.title ? `${status.title} — ` : ''}${status.text}`.replace(/\s+/g, ' ').trim();
  return {
    key: status.key,
    url: status.url,
    author: status.repostedBy ? `@${status.author.handle} (boosted by @${status.repostedBy})` : `@${status.author.handle}`,
    text: text.length > 280 ? `${text.slice(0, 279)}…` : text,
    createdAt: status.createdAt,
    score: Math.round(scored.score * 1000) / 1000,
    reasons: scored.reasons.map((reason) => ({...reason, effect: Math.round(reason.effect * 100) / 100})),
  };
}
