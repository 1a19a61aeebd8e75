import type {CommandResult} from '../command-output.js';
import {WorkbenchError} from '../../core/errors.js';
import {parseInteger} from '../../core/parse-number.js';
import {toTerminalLine} from '../../text/terminal-safe.js';
import {connect} from '../../agent/signin/connect.js';
import {openBrowser} from '../../agent/signin/open-browser.js';
import {listProfiles} from '../../agent/signin/list-profiles.js';
import {exampleProfile, GATEWAY_PROVIDER} from '../../agent/signin/profiles.js';

/** Long enough to sign in with a password manager and a second factor. */
export const DEFAULT_CONNECT_TIMEOUT_SECONDS = 300;

export interface ConnectFlags {
  provider?: string;
  showExample: boolean;
  list: boolean;
  timeoutSeconds?: string;
  json: boolean;
}

/** `workbench connect`: a sign-in (default provider: the built-in gateway), or --list / --show-example. */
export async function runConnectCommand(flags: ConnectFlags): Promise<CommandResult> {
  if (flags.showExample && flags.list) throw new WorkbenchError('invalid_argument', '--show-example and --list do not go together');
  if (flags.showExample) return {stdout: exampleProfile()};
  if (flags.list) {
    const listing = await listProfiles();
    if (flags.json) return {stdout: `${JSON.stringify(listing)}\n`};
    const labels = listing.map((item) => `${item.name}${item.builtIn ? ' (built in)' : ''}`);
    const width = Math.max(...labels.map((label) => label.length));
    const lines = listing.map((item, index) => {
      const state = item.problem
        ? `unusable: ${item.problem}`
        : !item.hasToken
          ? 'not signed in'
          : item.expiresAt
            ? `signed in, expires ${item.expiresAt}`
            : 'signed in (key does not expire)';
      return toTerminalLine(`${labels[index]!.padEnd(width)}  ${state}`);
    });
    return {stdout: `${lines.join('\n')}\n`};
  }
  const timeoutSeconds = parseInteger(flags.timeoutSeconds, '--timeout-seconds') ?? DEFAULT_CONNECT_TIMEOUT_SECONDS;
  if (timeoutSeconds < 1) throw new WorkbenchError('invalid_argument', `--timeout-seconds must be 1 or more, got ${timeoutSeconds}`);
  const result = await connect({
    provider: flags.provider ?? GATEWAY_PROVIDER,
    openBrowser: (url) => openBrowser(url),
    // Shown at once (the URL matters on a headless machine), on stderr so stdout holds only the result.
    print: (line) => process.stderr.write(`${toTerminalLine(line)}\n`),
    timeoutMs: timeoutSeconds * 1000,
  });
  if (flags.json) return {stdout: `${JSON.stringify(result)}\n`};
  const expiry = result.expiresAt ? `expires ${result.expiresAt}` : 'the key does not expire';
  return {stdout: `Signed in to ${result.provider} (${expiry}); token stored in ${result.tokenFile}; used with ${result.baseUrl}\n`};
}
