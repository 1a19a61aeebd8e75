import {parseJsonFeed} from 'feedsmith';
import {WorkbenchError} from '../../core/errors.js';
import type {ParsedFeed} from '../types.js';
import {parseFeedDate} from './dates.js';
import {escapeHtml} from '../../text/entities.js';
import {EnclosureList} from './enclosures.js';
import {finishItem} from './finish-item.js';
import {htmlToLine} from '../../text/html-text.js';
import {resolveUrl} from './resolve-url.js';

/**
 * JSON Feed 1.0 and 1.1. feedsmith reads the object (1.0's `author` and 1.1's `authors`, keys in
 * any case, strings where arrays belong); this maps its result to ParsedFeed.
 */
export function readJsonFeed(text: string, documentUrl?: string): ParsedFeed {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new WorkbenchError('not_a_feed', `not a feed: invalid JSON (${(error as Error).message})`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new WorkbenchError('not_a_feed', 'not a feed: JSON that is not an object');
  let json;
  try {
    json = parseJsonFeed(value);
  } catch {
    throw new WorkbenchError('not_a_feed', 'not a feed: JSON without a JSON Feed version, title or items');
  }
  const declared = String((value as Record<string, unknown>).version ?? '');
  const version = /\/version\/1\.1\b/.test(declared) ? 'JSON Feed 1.1' : 'JSON Feed 1.0';
  const link = resolveUrl(json.home_page_url, documentUrl);
  const base = json.home_page_url ?? json.feed_url ?? documentUrl;
  const feed: ParsedFeed = {format: 'json', version, title: htmlToLine(json.title ?? ''), items: []};
  if (link) feed.link = link;
  if (json.description) feed.description = htmlToLine(json.description);
  const feedAuthor = json.authors?.find((author) => author.name)?.name;
  for (const item of json.items ?? []) {
    const text = item.content_text ? escapeHtml(item.content_text) : undefined;
    const attachments = new EnclosureList(base);
    for (const attachment of item.attachments ?? [])
      attachments.add(attachment.url, attachment.mime_type, numberText(attachment.size_in_bytes), numberText(attachment.duration_in_seconds));
    feed.items.push(
      finishItem({
        guid: item.id !== undefined && item.id !== '' ? String(item.id) : undefined,
        title: htmlToLine(item.title ?? ''),
        link: resolveUrl(item.url ?? item.external_url, base),
        author: item.authors?.find((author) => author.name)?.name ?? feedAuthor,
        published: parseFeedDate(item.date_published),
        updated: parseFeedDate(item.date_modified),
        summary: item.summary ? escapeHtml(item.summary) : text,
        content: item.content_html ?? text,
        categories: item.tags ?? [],
        ...attachments.result(),
      }),
    );
  }
  return feed;
}

/** JSON Feed numbers read as the XML formats' attribute text, so one set of rules judges both. */
function numberText(value: unknown): string | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? String(value) : undefined;
}
