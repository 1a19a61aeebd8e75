import {homedir} from 'node:os';
import {WorkbenchError, describeErrorInFull} from '../../core/errors.js';
import {toTerminalText} from '../../text/terminal-safe.js';
import {parseLimit} from '../../core/parse-number.js';
import {openAgentSession} from '../../agent/loop/session.js';
import type {AgentSessionOptions, ApiChoice} from '../../agent/types.js';
import type {CommandResult} from '../command-output.js';
import {askOnTerminal} from './ask-on-terminal.js';
import {cancelOnInterrupt} from './interrupt.js';
import {TranscriptPrinter} from './transcript-printer.js';

export interface AgentFlags {
  api: string;
  baseUrl?: string;
  model?: string;
  oauthProvider?: string;
  apiKey?: string;
  credentialDiscovery: boolean;
  maxTurns?: string;
  yes: boolean;
  json: boolean;
}

const APIS: readonly ApiChoice[] = ['auto', 'messages', 'chat-completions'];

/** The session options from the flags, every flag checked (a bad value is one sentence naming the flag). */
export function agentSessionOptions(flags: AgentFlags, cwd = process.cwd()): AgentSessionOptions {
  if (!APIS.includes(flags.api as ApiChoice)) throw new WorkbenchError('invalid_argument', `--api must be one of ${APIS.join(', ')} (got "${flags.api}")`);
  if (flags.apiKey !== undefined && !flags.apiKey.trim()) throw new WorkbenchError('invalid_argument', '--api-key is empty');
  if (flags.apiKey !== undefined && flags.oauthProvider !== undefined)
    throw new WorkbenchError('invalid_argument', '--api-key and --oauth-provider both name a credential; give one');
  if (flags.baseUrl !== undefined && !URL.canParse(flags.baseUrl)) throw new WorkbenchError('invalid_argument', `--base-url is not a URL: "${flags.baseUrl}"`);
  if (flags.baseUrl !== undefined && !/^https?:$/.test(new URL(flags.baseUrl).protocol))
    throw new WorkbenchError('invalid_argument', `--base-url must be an http or https URL (got "${flags.baseUrl}")`);
  if (flags.model !== undefined && !flags.model.trim()) throw new WorkbenchError('invalid_argument', '--model is empty');
  return {
    api: flags.api as ApiChoice,
    baseUrl: flags.baseUrl,
    model: flags.model,
    oauthProvider: flags.oauthProvider,
    apiKey: flags.apiKey,
    discovery: flags.credentialDiscovery,
    maxTurns: maxTurns(flags.maxTurns),
    yes: flags.yes,
    cwd,
    env: process.env,
    home: homedir(),
  };
}

/**
 * `workbench agent "<prompt>"`: one message, run to its answer, rows printed as they come (the
 * streamed text as it arrives); `--json`, one JSON line per row. Exit code 1 when the run ended on
 * an error row.
 */
export async function runAgentPrompt(prompt: string, flags: AgentFlags): Promise<CommandResult> {
  if (!prompt.trim()) throw new WorkbenchError('invalid_argument', 'the prompt is empty');
  const options = agentSessionOptions(flags);
  const printer = new TranscriptPrinter({json: flags.json});
  const interactive = process.stdin.isTTY === true && !flags.json;
  let session;
  try {
    session = await openAgentSession(options, {
      ask: interactive ? (request) => printer.pause(() => askOnTerminal(request)) : undefined,
    });
  } catch (error) {
    // No credential: every step tried, in order, and how to fix it — several lines, printed whole.
    const whole = describeErrorInFull(error);
    if (!whole.includes('\n')) throw error;
    return {stdout: flags.json ? JSON.stringify({error: whole}) + '\n' : '', stderr: `workbench: ${toTerminalText(whole)}\n`, exitCode: 1};
  }
  try {
    printer.event({type: 'row', row: session.header});
    const stopInterrupts = cancelOnInterrupt(session);
    try {
      await session.send(prompt, (event) => printer.event(event));
    } finally {
      stopInterrupts();
    }
  } finally {
    await session.close();
  }
  await printer.flush();
  return {exitCode: printer.failed ? 1 : 0};
}

/** --max-turns: model requests per message, 1 to 1000 (default 20). */
function maxTurns(value: string | undefined): number {
  const turns = parseLimit(value, '--max-turns') ?? 20;
  if (turns > 1000) throw new WorkbenchError('invalid_argument', `--max-turns must be 1000 or less, got ${turns}`);
  return turns;
}
