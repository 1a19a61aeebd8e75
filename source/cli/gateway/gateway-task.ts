import {WorkbenchError} from '../../core/errors.js';
import {FEED_NAME_PATTERN} from '../../gateway/types.js';
import {openGateway} from '../../gateway/client/connect.js';
import type {GatewayClient} from '../../gateway/client/http-gateway.js';
import type {CommandResult} from '../command-output.js';

export {json, text} from '../command-result.js';

/** Runs one command's work on the gateway named by --url, else the running one; REFRESH_TOKEN comes from the environment. */
export async function withGateway(flags: {url?: string}, work: (gateway: GatewayClient) => Promise<CommandResult>): Promise<CommandResult> {
  if (flags.url !== undefined && !flags.url.trim()) throw new WorkbenchError('invalid_argument', '--url is empty');
  const gateway = await openGateway({url: flags.url?.trim(), refreshToken: process.env.REFRESH_TOKEN || undefined});
  return work(gateway);
}

/** A flag that must be given and hold more than spaces: its text, trimmed. */
export function required(value: string | undefined, flag: string, what: string): string {
  if (value === undefined) throw new WorkbenchError('invalid_argument', `${what} needs ${flag}`);
  const trimmed = value.trim();
  if (!trimmed) throw new WorkbenchError('invalid_argument', `${flag} must not be empty`);
  return trimmed;
}

/** A channel id as `channels create` printed it: one path segment, no spaces or control characters. */
export function channelId(value: string): string {
  const id = value.trim();
  if (!id || id.length > 200 || /[\s/\\?#\x00-\x1f\x7f]/.test(id)) throw new WorkbenchError('invalid_argument', `"${value}" is not a channel id (see \`workbench channels list\`)`);
  return id;
}

/** A proxied feed's name as declared in `.workbench.kdl`. */
export function feedName(value: string): string {
  const name = value.trim();
  if (!FEED_NAME_PATTERN.test(name)) throw new WorkbenchError('invalid_argument', `"${value}" is not a feed name (see \`workbench gateway feeds\`)`);
  return name;
}

/** An item's link: an absolute http(s) URL. */
export function linkUrl(value: string): string {
  const text = value.trim();
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new WorkbenchError('invalid_argument', `--link: "${value}" is not a URL (e.g. https://example.org/post)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new WorkbenchError('invalid_argument', `--link: "${value}" is not an http(s) URL`);
  return text;
}
