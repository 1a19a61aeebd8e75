import {createInterface} from 'node:readline/promises';
import {openAcpSession} from '../agent/acp/session.js';
import type {PermissionAnswer, PermissionAsker, Permit, TranscriptRow} from '../agent/types.js';
import {WorkbenchError, isWorkbenchError} from '../core/errors.js';
import {parseInteger} from '../core/parse-number.js';
import {toTerminalLine, toTerminalText} from '../text/terminal-safe.js';
import type {CommandResult} from './command-output.js';

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

/** Builds the permit the session asks (see commands/acp.tsx: the one place the project's rules plug in). */
export type PermitFactory = (options: {autoApprove: boolean; ask: PermissionAsker | undefined; askRefusal: string}) => Permit;

// Spec default; an hour is more than any agent needs to start, and a typo such as 6000000 is caught.
const DEFAULT_CONNECT_TIMEOUT = 60;
const MAX_CONNECT_TIMEOUT = 3600;
// Lines of a tool row's detail (a diff, a command's output) shown under it in plain text.
const DETAIL_LINES = 20;

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
export async function runAcpCommand(flags: AcpCommandFlags, makePermit: PermitFactory): Promise<CommandResult> {
  const prompt = flags.prompt?.trim();
  if (!flags.agent?.trim())
    throw new WorkbenchError('invalid_argument', '--agent is required: the command that starts the agent (for example --agent "gemini --experimental-acp")');
  if (!prompt) throw new WorkbenchError('invalid_argument', 'a prompt is required: workbench acp "<prompt>" --agent <command>');
  const connectTimeoutSeconds = parseConnectTimeout(flags.connectTimeoutSeconds);

  const out = new TranscriptPrinter(flags.json);
  const interactive = flags.ui && process.stdin.isTTY === true;
  const ask: PermissionAsker | undefined = interactive ? (request) => out.pause(() => askOnTerminal(request)) : undefined;
  const askRefusal = flags.ui ? 'there is no terminal to ask on (use --auto-approve or a rule)' : '--no-ui asks no questions (use --auto-approve or a rule)';
  const permit = makePermit({autoApprove: flags.autoApprove, ask, askRefusal});

  let session;
  try {
    session = await openAcpSession({agent: flags.agent, cwd: process.cwd(), autoApprove: flags.autoApprove, connectTimeoutSeconds, showAgentLog: flags.showAgentLog}, permit);
  } catch (error) {
    // An agent that died at once usually said why on stderr.
    const stderr = isWorkbenchError(error) ? (error.details as {stderr?: string[]} | undefined)?.stderr : undefined;
    for (const line of stderr ?? []) process.stderr.write(`agent: ${toTerminalLine(line)}\n`);
    throw error;
  }

  let interrupts = 0;
  const interrupt = () => {
    interrupts += 1;
    if (interrupts === 1) session.cancel();
    else void session.close().finally(() => process.exit(130));
  };
  process.on('SIGINT', interrupt);
  let failed = false;
  try {
    out.row(session.header);
    await session.send(prompt, (event) => {
      if (event.type === 'delta') return out.delta(event.text);
      if (event.row.kind === 'error') failed = true;
      out.row(event.row);
    });
  } finally {
    process.off('SIGINT', interrupt);
    await session.close();
  }
  out.end();
  return {exitCode: failed ? 1 : 0};
}

/**
 * Writes the transcript: rows as lines (or JSON lines), streamed text as it comes. Everything
 * the agent sent is made safe for the terminal here (escape sequences could rewrite the screen);
 * --json keeps it as it came.
 */
class TranscriptPrinter {
  private midLine = false;
  private held: Array<() => void> | undefined;

  constructor(private readonly json: boolean) {}

  delta(text: string): void {
    if (this.json) return;
    this.write(process.stdout, toTerminalText(text));
  }

  row(row: TranscriptRow): void {
    if (this.json) return this.write(process.stdout, `${JSON.stringify(row)}\n`);
    const text = plainRow(row);
    if (text === undefined) return this.lineBreak();
    this.lineBreak();
    this.write(row.kind === 'error' || row.kind === 'agent-log' ? process.stderr : process.stdout, text);
  }

  end(): void {
    this.lineBreak();
  }

  /** Holds output while the user answers a question, so the agent's log does not run through it. */
  async pause<T>(question: () => Promise<T>): Promise<T> {
    this.lineBreak();
    this.held = [];
    try {
      return await question();
    } finally {
      const held = this.held;
      this.held = undefined;
      for (const write of held) write();
    }
  }

  private lineBreak(): void {
    if (this.midLine) this.write(process.stdout, '\n');
  }

  private write(stream: NodeJS.WriteStream, text: string): void {
    if (!text) return;
    if (this.held) {
      this.held.push(() => this.write(stream, text));
      return;
    }
    if (stream === process.stdout) this.midLine = !text.endsWith('\n');
    stream.write(text);
  }
}

const PLAN_MARK: Record<string, string> = {completed: '[x]', in_progress: '[~]', pending: '[ ]'};

/** One row as plain text lines; undefined for the rows whose text was streamed already. */
export function plainRow(row: TranscriptRow): string | undefined {
  switch (row.kind) {
    case 'text':
    case 'answer':
      return undefined;
    case 'notice':
      return `${toTerminalLine(row.text)}\n`;
    case 'auth':
      return `auth: ${row.source} -> ${row.endpoint}\n`;
    case 'plan':
      return `plan:\n${row.entries.map((entry) => `  ${PLAN_MARK[entry.status] ?? '[?]'} ${toTerminalLine(entry.content)}\n`).join('')}`;
    case 'usage':
      return `tokens: ${row.input} in, ${row.output} out\n`;
    case 'error':
      return `workbench: ${toTerminalLine(row.message)}\n`;
    case 'agent-log':
      return `agent: ${toTerminalLine(row.text)}\n`;
    case 'tool': {
      const because = row.decision ? ` (${toTerminalLine(row.decision.reason)})` : '';
      let text = `tool: ${toTerminalLine(row.summary)}${because}\n`;
      if (row.error && !row.error.startsWith('refused')) text += `    ${toTerminalLine(row.error)}\n`;
      if (row.detail) {
        const lines = toTerminalText(row.detail).split('\n');
        const shown = lines.slice(0, DETAIL_LINES).map((line) => `    ${line}\n`);
        if (lines.length > DETAIL_LINES) shown.push(`    … ${lines.length - DETAIL_LINES} more lines\n`);
        text += shown.join('');
      }
      return text;
    }
  }
}

/** y / n / a(lways) on the terminal; anything else asks again, end of input refuses. */
async function askOnTerminal(request: Parameters<PermissionAsker>[0]): Promise<PermissionAnswer> {
  const lines = createInterface({input: process.stdin, output: process.stderr});
  // The end of input (Ctrl-D) is a no, not a question left open forever.
  const closed = new Promise<string>((resolve) => lines.once('close', () => resolve('n')));
  // readline takes Ctrl-C for itself while it asks: it refuses, and cancels the turn as Ctrl-C does elsewhere.
  lines.once('SIGINT', () => {
    lines.close();
    process.emit('SIGINT', 'SIGINT');
  });
  try {
    if (request.preview && request.preview !== request.argument) process.stderr.write(`${toTerminalText(request.preview)}\n`);
    for (;;) {
      const answer = (
        await Promise.race([
          closed,
          lines.question(`allow ${request.tool}: ${toTerminalLine(request.argument)}? (${toTerminalLine(request.decision.reason)}) [y]es / [n]o / [a]lways: `),
        ])
      )
        .trim()
        .toLowerCase();
      if (answer === 'y' || answer === 'yes') return 'allow';
      if (answer === 'a' || answer === 'always') return 'always';
      if (answer === 'n' || answer === 'no') return 'deny';
    }
  } catch {
    return 'deny';
  } finally {
    lines.close();
  }
}
