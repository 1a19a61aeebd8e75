import type {ExecResult, PageSession, ProxyInfo, TrafficEntry} from '../../../devproxy/types.js';
import {toTerminalLine, toTerminalText} from '../../../text/terminal-safe.js';

/**
 * The proxy's records as the Proxy pane draws them. Everything in them came from outside — a
 * browser's URL and title, a dev server's headers and bodies, a page's error message — and a
 * terminal obeys the bytes it is sent, so each string is made terminal-safe once, where the
 * record enters the view: one-line fields lose line breaks, bodies and stacks keep them.
 */

const line = (text: string | undefined) => (text === undefined ? undefined : toTerminalLine(text));
const text = (value: string | undefined) => (value === undefined ? undefined : toTerminalText(value));

function shownHeaders(headers: Record<string, string> | undefined): Record<string, string> {
  const shown: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) shown[toTerminalLine(name)] = toTerminalLine(String(value));
  return shown;
}

export function shownTraffic(entry: TrafficEntry): TrafficEntry {
  switch (entry.type) {
    case 'http':
      return {
        ...entry,
        method: toTerminalLine(entry.method),
        url: toTerminalLine(entry.url),
        contentType: line(entry.contentType),
        body: text(entry.body),
        requestBody: text(entry.requestBody),
        error: line(entry.error),
        page: line(entry.page),
        requestHeaders: shownHeaders(entry.requestHeaders),
        responseHeaders: shownHeaders(entry.responseHeaders),
      };
    case 'error':
      return {
        ...entry,
        message: toTerminalText(entry.message),
        category: line(entry.category),
        stack: text(entry.stack),
        rawStack: text(entry.rawStack),
        page: toTerminalLine(entry.page),
      };
    case 'custom':
      return {...entry, message: toTerminalText(entry.message), page: toTerminalLine(entry.page)};
    case 'diagnostic':
      return {...entry, message: toTerminalText(entry.message), category: toTerminalLine(entry.category), method: line(entry.method), url: line(entry.url)};
    case 'page':
      return {...entry, url: toTerminalLine(entry.url), title: toTerminalLine(entry.title)};
  }
}

export function shownPage(page: PageSession): PageSession {
  return {...page, url: toTerminalLine(page.url), title: toTerminalLine(page.title), userAgent: line(page.userAgent)};
}

/** A proxy's addresses as drawn (its id is [A-Za-z0-9._-] by the daemon's schema, and acted on as it is). */
export function shownProxy(info: ProxyInfo): ProxyInfo {
  return {...info, target: toTerminalLine(info.target), url: toTerminalLine(info.url)};
}

/** An exec answer: the value JSON-formatted (two-space indent), or the page's error, as lines to draw. */
export function execLines(result: ExecResult): {ok: boolean; heading: string; lines: string[]} {
  const heading = `${toTerminalLine(result.url)} (${toTerminalLine(result.session)})`;
  if (!result.ok) return {ok: false, heading, lines: toTerminalText(result.error).split('\n')};
  const json = result.value === undefined ? 'undefined' : JSON.stringify(result.value, null, 2);
  return {ok: true, heading, lines: toTerminalText(json ?? String(result.value)).split('\n')};
}
