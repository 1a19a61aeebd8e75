import {firstAppFrame} from './stack.js';

/**
 * A page's runtime exception as the inbox shows it: the error class as category, the rest as
 * message, and the first application frame of its stack as location.
 */

// `Uncaught TypeError: ...` as window.onerror reports it in Chrome; `Uncaught (in promise) ...` for rejections.
const UNCAUGHT = /^Uncaught\s+(?:\(in promise\)\s+)?/;
const ERROR_CLASS = /^([A-Z][\w$]*(?:Error|Exception))(?:\s*:\s*([\s\S]*))?$/;
// Firefox and Safari frames: `handleClick@http://localhost:3000/src/App.jsx:12:9`, Safari's
// `global code@…`, and the same mapped through a source map: `handleClick@src/App.jsx:12:9`.
const AT_SIGN_FRAME = /^\s*([^@]*)@(\S+:\d+:\d+)\s*$/;
const V8_FRAME = /^\s*at\s/;

export function splitJsMessage(message: string, category?: string): {category: string; message: string} {
  const text = message.trim().replace(UNCAUGHT, '');
  if (category) {
    const prefix = `${category}:`;
    return {category, message: text.startsWith(prefix) ? text.slice(prefix.length).trim() : text};
  }
  const match = ERROR_CLASS.exec(text);
  if (match) return {category: match[1], message: (match[2] ?? '').trim()};
  // `Script error.` (cross-origin) and thrown non-Errors carry no class.
  return {category: 'Error', message: text};
}

/**
 * First application frame of a browser stack, V8 or Firefox/Safari style; '' when none. The proxy
 * maps stacks through source maps first, so a frame reads `src/App.tsx:42:7` (project-relative)
 * where the bundle had one, and the page's URL where it had none.
 */
export function browserLocation(stack: string | undefined): string {
  if (!stack) return '';
  const lines = stack.split(/\r?\n/).map((line) => {
    if (V8_FRAME.test(line)) return line;
    const frame = AT_SIGN_FRAME.exec(line);
    return frame ? `    at ${frame[1] || '<unknown>'} (${frame[2]})` : line;
  });
  return firstAppFrame(lines);
}
