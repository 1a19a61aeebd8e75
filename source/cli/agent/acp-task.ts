import {STDERR_WITH_ERROR, openAcpSession} from '../../agent/acp/session.js';
import {projectPermit} from '../../agent/permissions/project-permit.js';
import type {PermissionAsker} from '../../agent/types.js';
import {askOnTerminal} from './ask-on-terminal.js';
import {cancelOnInterrupt} from './interrupt.js';
import {TranscriptPrinter} from './transcript-printer.js';
import {WorkbenchError, isWorkbenchError} from '../../core/errors.js';
import {parseInteger} from '../../core/parse-number.js';
import {toTerminalLine} from '../../text/terminal-safe.js';
import type {CommandResult} from '../command-output.js';

export interface AcpCommandFlags {
  prompt?: string;
  agent?: string;
  /** false with --no-ui: plain rows, no questions asked. */
  ui: boolean;
  autoApprove: boolean;
  connectTimeoutSeconds?: string;
  showAgentLog: boolean;
  json: boolean;
}

// Spec default; an hour is more than any agent needs to start, and a typo such as 6000000 is caught.
const DEFAULT_CONNECT_TIMEOUT = 60;
const MAX_CONNECT_TIMEOUT = 3600;

/** The --connect-timeout-seconds value: whole seconds, 1 to 3600. */
export function parseConnectTimeout(value: string | undefined): number {
  const seconds = parseInteger(value, '--connect-timeout-seconds') ?? DEFAULT_CONNECT_TIMEOUT;
  if (seconds < 1 || seconds > MAX_CONNECT_TIMEOUT)
    throw new WorkbenchError('invalid_argument', `--connect-timeout-seconds must be between 1 and ${MAX_CONNECT_TIMEOUT}, got ${seconds}`);
  return seconds;
}

/**
 * `workbench acp "<prompt>" --agent <command>`: one prompt to an external agent over ACP, its
 * transcript printed as it arrives (streamed text as it comes; --json: one JSON row per line).
 * Ctrl-C cancels the turn (a second one quits). Exit code 0 when the agent ended its turn,
 * 1 on any error row (the agent died, refused, was cancelled).
 */
export async function runAcpCommand(flags: AcpCommandFlags): Promise<CommandResult> {
  const prompt = flags.prompt?.trim();
  if (!flags.agent?.trim())
    throw new WorkbenchError('invalid_argument', '--agent is required: the command that starts the agent (for example --agent "gemini --experimental-acp")');
  if (!prompt) throw new WorkbenchError('invalid_argument', 'a prompt is required: workbench acp "<prompt>" --agent <command>');
  const connectTimeoutSeconds = parseConnectTimeout(flags.connectTimeoutSeconds);

  const out = new TranscriptPrinter({json: flags.json});
  const interactive = flags.ui && process.stdin.isTTY === true;
  const ask: PermissionAsker | undefined = interactive ? (request) => out.pause(() => askOnTerminal(request)) : undefined;
  // The project's rules decide an ACP agent's requests exactly as they decide the built-in tools'.
  const permit = await projectPermit(process.cwd(), {
    yes: flags.autoApprove,
    ask,
    yesFlag: '--auto-approve',
    noAsker: flags.ui ? 'there is no terminal to ask' : '--no-ui asks no questions',
  });

  let session;
  try {
    session = await openAcpSession({agent: flags.agent, cwd: process.cwd(), autoApprove: flags.autoApprove, connectTimeoutSeconds, showAgentLog: flags.showAgentLog}, permit);
  } catch (error) {
    // An agent that failed the handshake (died, refused, could not start a session) usually said why
    // on stderr: --show-agent-log shows it as transcript rows (--json: rows on stdout), else its last lines.
    const stderr = (isWorkbenchError(error) ? (error.details as {stderr?: string[]} | undefined)?.stderr : undefined) ?? [];
    if (flags.showAgentLog) for (const line of stderr) out.event({type: 'row', row: {kind: 'agent-log', text: toTerminalLine(line)}});
    else for (const line of stderr.slice(-STDERR_WITH_ERROR)) process.stderr.write(`agent: ${toTerminalLine(line)}\n`);
    await out.flush();
    throw error;
  }

  const stopInterrupts = cancelOnInterrupt(session);
  let failed = false;
  try {
    out.event({type: 'row', row: session.header});
    await session.send(prompt, (event) => {
      if (event.type === 'row' && event.row.kind === 'error') failed = true;
      out.event(event);
    });
  } finally {
    stopInterrupts();
    await session.close();
  }
  await out.flush();
  return {exitCode: failed ? 1 : 0};
}
