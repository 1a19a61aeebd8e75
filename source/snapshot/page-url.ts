import {WorkbenchError} from '../core/errors.js';
import {targetRefusal} from '../net/index.js';

/**
 * The URL of a page to capture: http or https only, and never a link-local or cloud metadata
 * address (the outbound address policy, source/net). Loopback and private hosts are allowed: the
 * page is usually the developer's own dev server. The browser's own requests are checked again as
 * they are made (capture.ts), which also covers redirects and what the page loads.
 */
export async function checkPageUrl(text: string): Promise<URL> {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new WorkbenchError('invalid_argument', `url ${quote(text)} is not a URL; give a whole one, e.g. http://127.0.0.1:3000/`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new WorkbenchError('invalid_argument', `url ${quote(text)} is not http or https; snapshots capture web pages, e.g. http://127.0.0.1:3000/`);
  }
  const refusal = await targetRefusal(url, {allowPrivate: true});
  if (refusal) throw new WorkbenchError('invalid_argument', refusal.message);
  return url;
}

function quote(text: string): string {
  return JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}…` : text);
}
