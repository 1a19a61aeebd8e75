import {WorkbenchError} from '../../core/errors.js';
import {openAgentSession} from '../../agent/loop/session.js';
import type {CommandResult} from '../command-output.js';
import {agentSessionOptions, type AgentFlags} from './agent-task.js';

/**
 * `workbench agent` without a prompt, on a terminal: the inline chat (finished turns printed once
 * and kept in the scrollback, the live turn redrawn), permission questions asked in it.
 */
export async function runAgentChat(flags: AgentFlags): Promise<CommandResult> {
  if (!process.stdin.isTTY || !process.stdout.isTTY || flags.json)
    throw new WorkbenchError('invalid_argument', 'no prompt given: run `workbench agent "<prompt>"`, or `workbench agent` alone on a terminal to chat');
  const options = agentSessionOptions(flags);
  const {runInlineChat, createAskerRelay} = await import('./inline-chat.js');
  const relay = createAskerRelay();
  const session = await openAgentSession(options, {ask: relay.ask});
  await runInlineChat(session, {asker: relay});
  return {};
}
