import type {TrafficEntry} from '../../../devproxy/types.js';
import {toTerminalText} from '../../../text/terminal-safe.js';
import {STATUS_COLOURS, statusClass} from './statusClass.js';
import {formatDuration, formatSize} from './TrafficRow.js';

/** One row of the detail view; `heading` rows are bold, `colour` paints the row. */
export interface DetailLine {
  text: string;
  heading?: boolean;
  colour?: string;
  dim?: boolean;
}

/** Body rows shown per body: the first part, as the traffic log keeps it. */
const BODY_ROWS = 200;

/** Cuts a plain line (no escapes: it went through the sanitiser) into rows of `width` characters. */
export function wrapPlain(line: string, width: number): string[] {
  const chars = Array.from(line);
  if (width <= 0 || chars.length <= width) return [line];
  const rows: string[] = [];
  for (let index = 0; index < chars.length; index += width) rows.push(chars.slice(index, index + width).join(''));
  return rows;
}

const field = (name: string, value: string | number | undefined): DetailLine[] => (value === undefined || value === '' ? [] : [{text: `${name.padEnd(10)}${value}`}]);

function block(title: string, text: string | undefined, width: number, empty: string): DetailLine[] {
  const rows = text ? text.split('\n').flatMap((line) => wrapPlain(line, width)) : [];
  const shown = rows.slice(0, BODY_ROWS).map((row) => ({text: row}));
  const more = rows.length > BODY_ROWS ? [{text: `… ${rows.length - BODY_ROWS} more rows`, dim: true}] : [];
  return [{text: title, heading: true}, ...(shown.length ? shown : [{text: empty, dim: true}]), ...more];
}

function headers(title: string, values: Record<string, string>, width: number): DetailLine[] {
  const entries = Object.entries(values);
  const nameWidth = Math.min(28, Math.max(0, ...entries.map(([name]) => name.length)) + 2);
  const rows = entries.flatMap(([name, value]) => wrapPlain(`${`${name}:`.padEnd(nameWidth)}${value}`, width).map((text) => ({text})));
  return [{text: title, heading: true}, ...(rows.length ? rows : [{text: '(none)', dim: true}])];
}

/**
 * Enter on an entry: everything the traffic log holds about it, as rows to scroll — for a request,
 * its line and timing, then the request's and the response's headers and the first part of each body.
 */
export function detailLines(entry: TrafficEntry, width: number): DetailLine[] {
  const time = new Date(entry.timestamp).toISOString();
  switch (entry.type) {
    case 'http': {
      const shownClass = statusClass(entry.status);
      return [
        {text: `${entry.method} ${entry.url}`, heading: true},
        {
          text: shownClass === 'failed' ? `no answer from the target: ${entry.error ?? 'transport error'}` : `${entry.status} ${entry.contentType ?? ''}`.trim(),
          colour: STATUS_COLOURS[shownClass],
        },
        ...field('time', `${time} · ${formatDuration(entry.durationMs)}`),
        ...field('sizes', `request ${formatSize(entry.requestBytes)} · response ${formatSize(entry.responseBytes)}`),
        ...field('trace', entry.traceId),
        ...field('page', entry.page),
        ...field('session', entry.session),
        ...field('injected', entry.injected ? 'page script injected' : undefined),
        {text: ''},
        ...headers('Request headers', entry.requestHeaders, width),
        {text: ''},
        ...block('Request body', entry.requestBody, width, '(empty)'),
        {text: ''},
        ...headers('Response headers', entry.responseHeaders, width),
        {text: ''},
        ...block('Response body (first part)', entry.body, width, '(empty or not kept)'),
      ];
    }
    case 'error':
      return [
        {text: `${entry.category ?? 'Error'} in the page`, heading: true, colour: 'red'},
        ...block('Message', entry.message, width, ''),
        ...field('page', entry.page),
        ...field('time', time),
        ...field('session', entry.session),
        {text: ''},
        ...block('Stack', entry.stack, width, '(no stack)'),
        ...(entry.rawStack && entry.rawStack !== entry.stack ? [{text: ''}, ...block('Stack as the browser gave it', entry.rawStack, width, '')] : []),
      ];
    case 'custom':
      return [
        {text: `__devtool.log(${entry.level})`, heading: true},
        ...block('Message', entry.message, width, ''),
        ...field('page', entry.page),
        ...field('time', time),
        ...(entry.data === undefined ? [] : [{text: ''}, ...block('Data', toTerminalText(JSON.stringify(entry.data, null, 2) ?? ''), width, '')]),
      ];
    case 'diagnostic':
      return [
        {text: `proxy ${entry.level}: ${entry.category}`, heading: true, colour: entry.level === 'error' ? 'magenta' : undefined},
        ...block('Message', entry.message, width, ''),
        ...field('request', entry.url ? `${entry.method ?? ''} ${entry.url}`.trim() : undefined),
        ...field('time', time),
      ];
    case 'page':
      return [{text: `page ${entry.event}`, heading: true}, ...field('url', entry.url), ...field('title', entry.title), ...field('session', entry.session), ...field('time', time)];
  }
}
