import {WorkbenchError} from '../../core/errors.js';
import type {DatabaseChat} from '../../gql/chat/chat-client.js';
import {databaseChatSession} from '../../gql/chat/chat-session.js';
import {openGqlClient} from '../../gql/client/index.js';
import type {GqlService, GqlSettings} from '../../gql/types.js';
import {toTerminalLine} from '../../text/terminal-safe.js';
import {askOnTerminal} from '../agent/ask-on-terminal.js';
import {cancelOnInterrupt} from '../agent/interrupt.js';
import {TranscriptPrinter} from '../agent/transcript-printer.js';
import type {CommandResult} from '../command-output.js';
import {jsonObject} from './query-task.js';

export interface GqlChatFlags {
  settings?: string;
  claims?: string;
  json?: boolean;
}

export interface GqlChatDeps {
  loadSettings(file: string | undefined): GqlSettings;
  openService(settings: GqlSettings): Promise<GqlService>;
}

/**
 * The database's chat through the GraphQL client, as `gql query` reaches the service: the
 * running `serve graphql` of the same settings, else in-process — always in-process with
 * `--claims`, as the user holding them. `work` gets the chat; the client is closed after it.
 */
async function withChat<T>(flags: GqlChatFlags, deps: GqlChatDeps, work: (chat: DatabaseChat) => Promise<T>): Promise<T> {
  if (flags.settings !== undefined && flags.settings.trim() === '') throw new WorkbenchError('invalid_argument', '--settings is empty');
  const claims = jsonObject(flags.claims, '--claims');
  const settings = deps.loadSettings(flags.settings);
  const client = await openGqlClient(settings, {...(claims !== undefined ? {claims} : {}), openService: (loaded) => deps.openService(loaded)});
  try {
    return await work(await client.chat());
  } finally {
    await client.close();
  }
}

/** A conversation id as typed: a whole number stays a number (the usual key), anything else a string. */
export function conversationIdOf(text: string | undefined, flag: string): number | string | undefined {
  if (text === undefined) return undefined;
  const trimmed = text.trim();
  if (trimmed === '') throw new WorkbenchError('invalid_argument', `${flag} is empty`);
  return /^\d+$/.test(trimmed) && Number.isSafeInteger(Number(trimmed)) ? Number(trimmed) : trimmed;
}

/**
 * `workbench gql chat send <message>`: one message to the database's chat, printed as `workbench
 * agent` prints a turn (tool rows, the answer streamed, `--json` one row a line). A plan the model
 * proposes is asked about on a terminal and runs only on yes; in a script it waits, with the
 * command that approves it. The last line names the conversation to continue with --conversation.
 */
export async function runGqlChatSend(message: string, flags: GqlChatFlags & {conversation?: string}, deps: GqlChatDeps): Promise<CommandResult> {
  if (message.trim() === '') throw new WorkbenchError('invalid_argument', 'the message is empty; e.g. workbench gql chat send "which albums sold best?"');
  const conversationId = conversationIdOf(flags.conversation, '--conversation');
  const printer = new TranscriptPrinter({json: flags.json === true});
  const interactive = process.stdin.isTTY === true && flags.json !== true;
  return withChat(flags, deps, async (chat) => {
    const session = databaseChatSession(chat, interactive ? (request) => printer.pause(() => askOnTerminal(request)) : undefined, {conversationId});
    const stopInterrupts = cancelOnInterrupt(session);
    try {
      await session.send(message, (event) => printer.event(event));
    } finally {
      stopInterrupts();
    }
    const id = session.conversationId();
    if (id !== undefined) printer.event({type: 'row', row: {kind: 'notice', text: `conversation ${String(id)} · continue with --conversation ${String(id)}`}});
    await printer.flush();
    return {exitCode: printer.failed ? 1 : 0};
  });
}

/** `workbench gql chat list`: the conversations (newest first) a line each, or one with its messages; `--json` as the chat gives them. */
export async function runGqlChatList(flags: GqlChatFlags & {conversation?: string}, deps: GqlChatDeps): Promise<CommandResult> {
  const wanted = conversationIdOf(flags.conversation, '--conversation');
  return withChat(flags, deps, async (chat) => {
    const all = await chat.conversations();
    const shown = wanted === undefined ? all : all.filter((conversation) => String(conversation.id) === String(wanted));
    if (wanted !== undefined && shown.length === 0) throw new WorkbenchError('not_found', `no conversation ${String(wanted)} among your newest ${all.length}`);
    if (flags.json) return {stdout: `${JSON.stringify({conversations: shown})}\n`};
    if (shown.length === 0) return {stdout: 'no conversations yet: workbench gql chat send "<message>" starts one\n'};
    if (wanted === undefined)
      return {
        stdout: shown
          .map((conversation) => {
            const last = conversation.messages.at(-1);
            return `${String(conversation.id)}\t${toTerminalLine(conversation.title ?? '(untitled)')}\t${conversation.messages.length} message${conversation.messages.length === 1 ? '' : 's'}${last ? `\t${last.createdAt.slice(0, 19)}` : ''}\n`;
          })
          .join(''),
      };
    const [conversation] = shown;
    const lines = [`${String(conversation!.id)} ${toTerminalLine(conversation!.title ?? '(untitled)')}`];
    for (const message of conversation!.messages) lines.push(`${message.createdAt.slice(0, 19)} ${message.role}: ${toTerminalLine(message.content)}`);
    return {stdout: lines.map((line) => `${line}\n`).join('')};
  });
}

/** `workbench gql chat approve <plan>`: runs a proposed plan through the chat's approval (stored, audited). */
export async function runGqlChatApprove(planText: string, flags: GqlChatFlags, deps: GqlChatDeps): Promise<CommandResult> {
  const planId = conversationIdOf(planText, 'the plan id');
  return withChat(flags, deps, async (chat) => {
    const approval = await chat.approvePlan(planId!);
    if (flags.json) return {stdout: `${JSON.stringify({approval})}\n`};
    return {
      stdout: `plan ${String(approval.planId)} ran: ${approval.affected} row${approval.affected === 1 ? '' : 's'} changed (conversation ${String(approval.conversationId)}, approved by ${toTerminalLine(approval.approvedBy)} at ${approval.approvedAt})\n`,
    };
  });
}
