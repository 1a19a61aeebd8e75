import type {StreamRow} from '../store/index.js';
import {millis} from '../store/index.js';
import {feedStreamId, labelId, longItemId, STATE} from './ids.js';

/** An article as a Google Reader item (FreshRSS's and Miniflux's shape). */
export function itemJson(row: StreamRow, lists: string[] | undefined, starredTitle: string): string {
  const sortAt = millis(row.sort_at)!;
  const crawled = millis(row.created_at) ?? sortAt;
  const published = Math.floor((millis(row.published_at) ?? sortAt) / 1000);
  const categories = [`${STATE}reading-list`];
  if (row.is_read === true || row.is_read === 1) categories.push(`${STATE}read`);
  if (row.feed_category) categories.push(labelId(row.feed_category));
  for (const title of lists ?? []) categories.push(title === starredTitle ? `${STATE}starred` : labelId(title));
  const link = row.link ? JSON.stringify([{href: row.link, type: 'text/html'}]) : '[]';
  return (
    `{"id":${JSON.stringify(longItemId(Number(row.id)))},"crawlTimeMsec":"${crawled}","timestampUsec":"${sortAt * 1000}","published":${published},"updated":${published}` +
    `,"title":${JSON.stringify(row.title)},"canonical":${link},"alternate":${link},"categories":${JSON.stringify(categories)}` +
    `,"origin":{"streamId":"${feedStreamId(Number(row.feed_id))}","title":${JSON.stringify(row.feed_title)},"htmlUrl":${JSON.stringify(row.feed_site ?? '')}}` +
    `,"summary":{"direction":"ltr","content":${JSON.stringify(row.content ?? row.summary ?? '')}},"author":${JSON.stringify(row.author ?? '')}}`
  );
}

const XML_UNSAFE = /[&<>"]/g;
const XML_ENTITIES: Record<string, string> = {'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;'};
// XML 1.0 cannot carry most control characters, whatever a feed sent.
const XML_INVALID = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g;

function xml(text: string): string {
  return text.replace(XML_INVALID, '').replace(XML_UNSAFE, (char) => XML_ENTITIES[char]!);
}

/**
 * A stream as Atom with Google Reader's categories (FeedHQ's `/reader/atom/<stream>`): what
 * newsboat reads. Read state rides on `<category scheme="http://www.google.com/reader/"
 * label="read">`, unread on `label="fresh"`, so the server's state wins on every reload.
 */
export function atomFeed(streamId: string, title: string, rows: StreamRow[], continuation: string | null): string {
  const entries = rows.map((row) => {
    const read = row.is_read === true || row.is_read === 1;
    const published = new Date(millis(row.published_at) ?? millis(row.sort_at)!).toISOString();
    const state = read ? 'read' : 'fresh';
    return (
      `<entry><id>${longItemId(Number(row.id))}</id><title type="html">${xml(row.title)}</title><published>${published}</published><updated>${published}</updated>` +
      (row.link ? `<link rel="alternate" href="${xml(row.link)}" type="text/html"/>` : '') +
      (row.author ? `<author><name>${xml(row.author)}</name></author>` : '') +
      `<category term="${STATE}${state}" scheme="http://www.google.com/reader/" label="${state}"/>` +
      `<content type="html">${xml(row.content ?? row.summary ?? '')}</content>` +
      `<source gr:stream-id="${feedStreamId(Number(row.feed_id))}"><title>${xml(row.feed_title)}</title></source></entry>`
    );
  });
  return (
    `<?xml version="1.0" encoding="utf-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom" xmlns:gr="http://www.google.com/schemas/reader/atom/">` +
    `<id>tag:google.com,2005:reader/${xml(streamId)}</id><title>${xml(title)}</title><updated>${new Date().toISOString()}</updated>` +
    (continuation ? `<gr:continuation>${continuation}</gr:continuation>` : '') +
    `${entries.join('')}</feed>\n`
  );
}
