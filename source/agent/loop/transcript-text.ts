import {toTerminalLine} from '../../text/terminal-safe.js';
import type {ToolRow, TranscriptRow} from '../types.js';

/**
 * Transcript rows as plain text lines (spec 1, "Agent module cmdlets": the auth row first, then
 * tool-call rows, the final answer and a closing token row). One function for every face: the
 * CLI's non-TTY output, the inline chat and the TUI's Chat pane print the same words. Text from
 * outside (a model's answer, a command's output, an agent's log) goes through terminal-safe, so a
 * row can never write an escape sequence to the terminal that shows it.
 */
export function formatRow(row: TranscriptRow): string[] {
  switch (row.kind) {
    case 'auth':
      return [authLine(row)];
    case 'notice':
      return lines(row.text);
    case 'tool':
      return [toolLine(row)];
    case 'text':
    case 'answer':
      return lines(row.text);
    case 'usage':
      return [`tokens: ${row.input} in, ${row.output} out`];
    case 'error':
      return lines(`error: ${row.message}`);
    case 'plan':
      return ['plan:', ...row.entries.map((entry) => `  [${toTerminalLine(entry.status)}] ${toTerminalLine(entry.content)}`)];
    case 'agent-log':
      return lines(row.text).map((line) => `agent: ${line}`);
  }
}

/** `auth: MESSAGES_API_KEY -> https://host/v1/messages`, the `[chat-completions]` tag, and a sign-in's provider, expiry (UTC) and base. */
function authLine(row: Extract<TranscriptRow, {kind: 'auth'}>): string {
  let line = `auth: ${toTerminalLine(row.source)} -> ${toTerminalLine(row.endpoint)}`;
  if (row.transport === 'chat-completions') line += ' [chat-completions]';
  if (row.signIn) {
    const expiry = row.signIn.expiresAt === null ? 'no expiry' : `expires ${utcStamp(row.signIn.expiresAt)}`;
    line += ` (sign-in ${toTerminalLine(row.signIn.provider)}, ${expiry}, base ${toTerminalLine(row.signIn.baseUrl)}${row.signIn.refreshed ? ', refreshed' : ''})`;
  }
  return line;
}

/** `2026-11-24 10:00:00 UTC`: the expiry said in UTC whatever the machine's zone. */
function utcStamp(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return toTerminalLine(iso);
  return `${date.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/** The tool row's one line: ✓ or ✗, the summary, the exit code when the summary does not say it, and why it failed. */
export function toolLine(row: ToolRow): string {
  const failed = row.error !== undefined || (row.exitCode !== undefined && row.exitCode !== 0);
  const summary = toTerminalLine(row.summary);
  const exit = row.exitCode !== undefined && !new RegExp(`exit ${row.exitCode}\\b`).test(summary) ? ` (exit ${row.exitCode})` : '';
  const error = row.error !== undefined ? `: ${toTerminalLine(row.error)}` : '';
  return `${failed ? '✗' : '✓'} ${summary}${exit}${error}`;
}

/** The expanded part of a tool row: the diff of an edit, a command's output, and the rule that decided. */
export function formatToolDetail(row: ToolRow): string[] {
  const detail = row.detail === undefined || row.detail === '' ? [] : lines(row.detail.replace(/\n$/, ''));
  return row.decision ? [...detail, `(${toTerminalLine(row.decision.reason)})`] : detail;
}

function lines(text: string): string[] {
  return text.split(/\r?\n/).map((line) => toTerminalLine(line.replace(/\t/g, '  ')));
}
