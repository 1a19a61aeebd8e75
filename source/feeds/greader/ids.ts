import {WorkbenchError} from '../../core/errors.js';

const LONG_PREFIX = 'tag:google.com,2005:reader/item/';

/** An article's item id as clients know it: the long form (16 hex digits). */
export function longItemId(articleId: number): string {
  return `${LONG_PREFIX}${articleId.toString(16).padStart(16, '0')}`;
}

/** An item id in any of its forms: long (`tag:…/item/<hex>`), short decimal, or bare hex of 16 digits. */
export function articleIdOf(value: string): number {
  const text = value.trim();
  let id: number;
  if (text.startsWith(LONG_PREFIX)) id = Number.parseInt(text.slice(LONG_PREFIX.length), 16);
  else if (/^-?\d{1,19}$/.test(text)) id = Number(text);
  else if (/^[0-9a-f]{16}$/i.test(text)) id = Number.parseInt(text, 16);
  else throw new WorkbenchError('invalid_argument', `"${text.slice(0, 60)}" is not an item id`);
  if (!Number.isSafeInteger(id) || id < 1) throw new WorkbenchError('invalid_argument', `"${text.slice(0, 60)}" is not an item id`);
  return id;
}

export type Stream = {kind: 'reading-list'} | {kind: 'read'} | {kind: 'starred'} | {kind: 'kept-unread'} | {kind: 'feed'; feedId: number} | {kind: 'label'; name: string};

export const STATE = 'user/-/state/com.google/';

/** A stream id: `feed/<id>`, `user/-/state/com.google/<state>`, `user/-/label/<name>` (`user/<anything>/` like `user/-/`). */
export function parseStream(value: string): Stream {
  const text = value.trim().replace(/^user\/[^/]+\//, 'user/-/');
  const feed = /^feed\/(\d{1,10})$/.exec(text);
  if (feed) return {kind: 'feed', feedId: Number(feed[1])};
  if (text.startsWith(STATE)) {
    const state = text.slice(STATE.length);
    if (state === 'reading-list' || state === 'read' || state === 'starred' || state === 'kept-unread') return {kind: state};
  }
  if (text.startsWith('user/-/label/') && text.length > 'user/-/label/'.length) return {kind: 'label', name: text.slice('user/-/label/'.length)};
  throw new WorkbenchError(
    'invalid_argument',
    `"${value.slice(0, 80)}" is not a stream this reader knows (feed/<id>, user/-/state/com.google/reading-list|read|starred, user/-/label/<name>)`,
  );
}

export function feedStreamId(feedId: number): string {
  return `feed/${feedId}`;
}

export function labelId(name: string): string {
  return `user/-/label/${name}`;
}
