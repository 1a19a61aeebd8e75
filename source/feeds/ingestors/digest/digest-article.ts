import type {ParsedItem} from '../../types.js';
import {escapeHtml, statusTitle} from '../cycle/status-item.js';
import type {DigestMode, ScoredStatus} from '../types.js';
import {digestSpan} from './boundary.js';

/**
 * One article for the statuses gathered since the last boundary: grouped by conversation, then
 * by author, the best group first (a group ranks by its best status), each status with its score.
 */
export function digestArticle(title: string, mode: DigestMode, boundaryMs: number, pending: ScoredStatus[]): ParsedItem {
  const {from, to} = digestSpan(mode, boundaryMs);
  const groups = new Map<string, ScoredStatus[]>();
  for (const scored of pending) {
    const key = `${scored.status.threadKey}\u0000${scored.status.author.handle}`;
    const list = groups.get(key) ?? [];
    list.push(scored);
    groups.set(key, list);
  }
  const ordered = [...groups.values()].map((list) => list.sort((a, b) => b.score - a.score)).sort((a, b) => b[0]!.score - a[0]!.score);
  const sections = ordered.map((list) => {
    const first = list[0]!.status;
    const items = list
      .map(({status, score}) => {
        const text = escapeHtml(status.text.length > 600 ? `${status.text.slice(0, 599)}…` : status.text);
        return `<li><a href="${escapeHtml(status.url)}">${escapeHtml(statusTitle(status))}</a> <small>(score ${score.toFixed(2)})</small><br>${text}</li>`;
      })
      .join('');
    return `<h3>@${escapeHtml(first.author.handle)}${list.length > 1 ? ` · ${list.length} posts` : ''}</h3><ul>${items}</ul>`;
  });
  const span = `${stamp(from, mode)}–${stamp(to, mode)} UTC`;
  return {
    guid: `digest:${boundaryMs}`,
    title: `${title} — digest, ${span} (${pending.length} post${pending.length === 1 ? '' : 's'})`,
    published: new Date(boundaryMs).toISOString(),
    content: sections.join(''),
    categories: ['digest'],
  };
}

function stamp(ms: number, mode: DigestMode): string {
  const iso = new Date(ms).toISOString();
  return mode === 'hourly' ? `${iso.slice(0, 10)} ${iso.slice(11, 16)}` : iso.slice(0, 10);
}
