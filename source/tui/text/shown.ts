import type {Article, Feed, List} from '../../feeds/types.js';
import type {UnifiedError} from '../../incidents/types.js';
import type {ProcessInfo} from '../../processes/types.js';
import {toTerminalLine, toTerminalText} from '../../text/terminal-safe.js';

/**
 * Data from outside as the TUI draws it. A feed's title, a process's command, an error message
 * come from programs and sites the user does not control, and a terminal obeys the bytes it is
 * sent (`ESC ] 52` writes the clipboard, `ESC [ 2J` clears the screen). Each helper turns one
 * record's shown strings into terminal-safe ones, once, where the data enters a pane's view, so no
 * JSX has to remember it. Fields used to act on the record (a process's id, numbers) are not
 * touched: a pane draws a process's id through {@link shownProcessId}.
 */

function lineOrNull(text: string | null): string | null {
  return text === null ? null : toTerminalLine(text);
}

/** A feed for the feeds column and the messages naming it. */
export function shownFeed(feed: Feed): Feed {
  return {
    ...feed,
    title: toTerminalLine(feed.title),
    url: toTerminalLine(feed.url),
    siteUrl: lineOrNull(feed.siteUrl),
    category: lineOrNull(feed.category),
    lastError: lineOrNull(feed.lastError),
  };
}

/** An article row: title, author, link and categories (the content is made safe by article-text). */
export function shownArticle<A extends Article>(article: A): A {
  return {...article, title: toTerminalLine(article.title), link: lineOrNull(article.link), author: lineOrNull(article.author), categories: article.categories.map(toTerminalLine)};
}

/** A reading list in the list picker. */
export function shownList(list: List): List {
  return {...list, title: toTerminalLine(list.title), ...(list.rssUrl === undefined ? {} : {rssUrl: toTerminalLine(list.rssUrl)})};
}

/** An incident as the Incidents pane shows it: one-line fields, the message with its line breaks (the detail view wraps it). */
export function shownIncident<E extends UnifiedError & {variants?: string[]; frames?: string[]}>(entry: E): E {
  return {
    ...entry,
    ...(entry.variants ? {variants: entry.variants.map(toTerminalLine)} : {}),
    ...(entry.frames ? {frames: entry.frames.map(toTerminalLine)} : {}),
    source: toTerminalLine(entry.source),
    category: toTerminalLine(entry.category),
    message: toTerminalText(entry.message),
    location: toTerminalLine(entry.location),
    page: toTerminalLine(entry.page),
  };
}

/** The fields of a process the Processes pane draws as text; its `id` stays what the daemon knows it by. */
export function shownProcess(info: ProcessInfo): ProcessInfo {
  return {...info, command: toTerminalLine(info.command), cwd: toTerminalLine(info.cwd), ...(info.scriptName === undefined ? {} : {scriptName: toTerminalLine(info.scriptName)})};
}

/** A process id as drawn (the daemon accepts any id a user gives). */
export function shownProcessId(id: string): string {
  return toTerminalLine(id);
}
