import type {Keypress} from '../../key/keyBindings.js';

/**
 * Keys only the Feeds pane has, newsboat's where it has one. The help overlay lists them by label;
 * the pane's key line shows them too.
 */
export const FeedKey = {
  TOGGLE_READ: 'r',
  MARK_FEED_READ: 'm',
  SNOOZE: 'z',
  SAVE_TO_LIST: 'l',
  REFRESH_FEED: 'R',
  OPEN_LINK: 'o',
  ADD_FEED: 'a',
  REMOVE_FEED: 'd',
  NEXT_UNREAD: 'n',
  GATEWAY: 'g',
  INGESTORS: 'i',
  TEST_INGESTOR: 't',
  PAGE_DOWN: ' ',
} as const;

export type FeedKeyName = keyof typeof FeedKey;

export function isFeedKey(name: FeedKeyName, press: Keypress): boolean {
  return press.name === undefined && !press.ctrl && !press.meta && press.input === FeedKey[name];
}

/** The key line at the foot of the pane, for the list and for the reader. */
export const LIST_KEY_LINE =
  'enter open · r read/unread · g gateway · i ingestors · m feed read · z snooze · l save to list · R refresh · o open link · a add feed · d remove feed · / filter · tab column';
export const READER_KEY_LINE = '↑↓ pgup pgdn space scroll · r unread · z snooze · l save · o open link · n next unread · esc/q back';
export const INGESTOR_KEY_LINE = '↑↓ select · t test cycle (kept and dropped, with reasons) · R run now · i/esc back to the feeds';
export const GATEWAY_KEY_LINE = '↑↓ select · R refresh the feed (REFRESH_TOKEN) · g/esc back to the reader’s feeds';
