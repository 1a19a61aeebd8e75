import type {OutgoingHttpHeaders} from 'node:http';
import {decodeContent} from './content-coding.js';
import {allowPageScript} from './csp.js';
import {insertionOffsetIn} from './insert-script.js';
import {looksLikeHtml} from './looks-like-html.js';
import {SCRIPT_MARKER, type PageScript} from './page-script.js';

// Headers that describe the target's bytes, not the injected page's.
const STALE = ['content-encoding', 'content-length', 'content-md5', 'digest', 'etag', 'last-modified', 'content-range'];
const CSP_HEADERS = ['content-security-policy', 'content-security-policy-report-only'];

/**
 * A whole HTML response with the page script in it: decoded, injected once, sent as identity with
 * its new length, CSP adjusted. The body comes back in parts (page start, tag, page rest) for the
 * response to write one after another: joining them would copy the page once more. Undefined when the body is left as the target sent it: an unknown
 * coding, not HTML after all, or injected already.
 * Validators go (ETag, Last-Modified): a 304 to a revalidation would bring back the target's
 * unadjusted CSP and the cached page's nonce would no longer match.
 */
export function injectHtml(raw: Buffer, headers: OutgoingHttpHeaders, script: PageScript, channelOrigin: string): {parts: Buffer[]; headers: OutgoingHttpHeaders} | undefined {
  const decoded = decodeContent(raw, headerText(headers['content-encoding']));
  if (!decoded || !looksLikeHtml(decoded) || decoded.includes(SCRIPT_MARKER)) return undefined;
  const {nonce, parts} = script.tag();
  const offset = insertionOffsetIn(decoded);
  const body = [decoded.subarray(0, offset), ...parts, decoded.subarray(offset)];
  const adjusted: OutgoingHttpHeaders = {...headers};
  for (const name of STALE) delete adjusted[name];
  adjusted['content-length'] = body.reduce((sum, part) => sum + part.length, 0);
  for (const name of CSP_HEADERS) {
    const value = headers[name];
    if (value === undefined) continue;
    adjusted[name] = Array.isArray(value) ? value.map((policy) => allowPageScript(policy, nonce, channelOrigin)) : allowPageScript(String(value), nonce, channelOrigin);
  }
  return {parts: body, headers: adjusted};
}

function headerText(value: OutgoingHttpHeaders[string]): string | undefined {
  return value === undefined ? undefined : Array.isArray(value) ? value.join(',') : String(value);
}
