import {WorkbenchError} from '../../core/errors.js';

/** Parses a feed URL; anything but http(s) is refused before a socket is opened. */
export function parseFeedUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(typeof raw === 'string' ? raw.trim() : String(raw));
  } catch {
    throw new WorkbenchError('invalid_argument', `not a URL: ${JSON.stringify(raw)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new WorkbenchError('invalid_argument', `only http and https feeds can be fetched, not ${url.protocol.replace(/:$/, '')}: ${url.href}`);
  }
  // Credentials in a feed URL would be sent to every redirect target; refuse them.
  if (url.username || url.password) throw new WorkbenchError('invalid_argument', `feed URLs must not carry a user name or password: ${url.host}`);
  url.hash = '';
  return url;
}
