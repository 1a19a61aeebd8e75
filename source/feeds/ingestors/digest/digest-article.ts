import type {ParsedItem} from '../../types.js';
import {escapeHtml, statusTitle} from '../cycle/status-item.js';
import type {DigestMode, ScoredStatus} from '../types.js';
import {digestSpan} from './boundary.js';

/**
 * Posts shown in one digest, best first. A busy hashtag can gather thousands in a day; the
 * article would outgrow the store's body limit and be cut mid-tag. The rest are counted instead.
 */
export const DIGEST_POSTS_SHOWN = 300;
const TEXT_CHARS = 600;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * One article for the statuses gathered since the last boundary: grouped by conversation, then
 * by author, the best group first (a group ranks by its best status), each status with its author,
 * text, link and score. Built from escaped text only, so it needs no sanitising.
 */
export function digestArticle(title: string, mode: DigestMode, boundaryMs: number, pending: ScoredStatus[]): ParsedItem {
  const shown = [...pending].sort((a, b) => b.score - a.score).slice(0, DIGEST_POSTS_SHOWN);
  const groups = new Map<string, ScoredStatus[]>();
  for (const scored of shown) {
    const key = `${scored.status.threadKey}\u0000${scored.status.author.handle}`;
    const list = groups.get(key) ?? [];
    list.push(scored);
    groups.set(key, list);
  }
  // Insertion order is best first, and so is each group: the groups sort by their first (best) post.
  const ordered = [...groups.values()].sort((a, b) => b[0]!.score - a[0]!.score);
  const sections = ordered.map((list) => {
    const first = list[0]!.status;
    const items = list
      .map(({status, score}) => {
        const text = escapeHtml(status.text.length > TEXT_CHARS ? `${status.text.slice(0, TEXT_CHARS - 1)}…` : status.text);
        const boost = status.repostedBy ? ` · boosted by @${escapeHtml(status.repostedBy)}` : '';
        return `<li><a href="${escapeHtml(status.url)}">${escapeHtml(statusTitle(status))}</a> <small>(score ${score.toFixed(2)}${boost})</small><br>${text}</li>`;
      })
      .join('');
    const who = first.author.name ? `${escapeHtml(first.author.name)} (@${escapeHtml(first.author.handle)})` : `@${escapeHtml(first.author.handle)}`;
    return `<h3>${who}${list.length > 1 ? ` · ${list.length} posts` : ''}</h3><ul>${items}</ul>`;
  });
  const rest = pending.length - shown.length;
  if (rest > 0) sections.push(`<p>… and ${rest} more post${rest === 1 ? '' : 's'} that scored lower.</p>`);
  return {
    guid: `digest:${boundaryMs}`,
    title: `${title} — digest, ${spanText(mode, boundaryMs)} (${pending.length} post${pending.length === 1 ? '' : 's'})`,
    published: new Date(boundaryMs).toISOString(),
    content: sections.join(''),
    categories: ['digest'],
  };
}

/** `24 Nov 2026 10:00–11:00 UTC` (hourly), `24 Nov 2026 UTC` (daily: the day that ended at the boundary). */
export function spanText(mode: DigestMode, boundaryMs: number): string {
  const {from, to} = digestSpan(mode, boundaryMs);
  const start = new Date(from);
  const day = `${start.getUTCDate()} ${MONTHS[start.getUTCMonth()]} ${start.getUTCFullYear()}`;
  if (mode !== 'hourly') return `${day} UTC`;
  const clock = (ms: number) => new Date(ms).toISOString().slice(11, 16);
  // The last hour of a day ends at 24:00, not 00:00.
  const end = clock(to) === '00:00' ? '24:00' : clock(to);
  return `${day} ${clock(from)}–${end} UTC`;
}
