import {readFileSync} from 'node:fs';
import {dirname, join} from 'node:path';
import {writeFileAtomic} from '../../core/atomic-write.js';
import {homedir} from 'node:os';
import {openAcpSession} from '../../agent/acp/session.js';
import {openAgentSession} from '../../agent/loop/session.js';
import {projectPermit} from '../../agent/permissions/project-permit.js';
import {WorkbenchError} from '../../core/errors.js';
import {ensureDirectory, workbenchHome} from '../../core/paths.js';
import type {ChatSession, PermissionAsker} from '../../agent/types.js';

/**
 * How the Chat pane opens conversations: a model endpoint (the agent loop, `workbench agent`'s
 * flags from the project) or an external agent over ACP (`workbench acp`). The pane passes its
 * asker, so a tool call the rules say to ask about becomes a prompt in the pane.
 */
export interface ChatOpeners {
  openAgent(ask: PermissionAsker): Promise<ChatSession>;
  openAcp(agentCommand: string, ask: PermissionAsker): Promise<ChatSession>;
  /** The served database's chat, its connectors as the model's tools (the GraphQL pane's service). */
  openDatabase?(ask: PermissionAsker): Promise<ChatSession>;
}

/** The Chat pane's port: the openers, the ACP command last used, and the sessions to close when the TUI quits. */
export interface ChatPort extends Required<ChatOpeners> {
  /** The agent command of the last switch to ACP, offered again at the next one. */
  lastAcpCommand(): string | undefined;
  close(): Promise<void>;
}

/**
 * The openers of the TUI: the agent loop with `workbench agent`'s defaults (credentials in the
 * spec's order, the transport `auto` picks, the project's rules, nothing allowed without asking
 * that the rules do not allow), and an ACP agent under the same rules, its log shown as rows.
 */
export function agentChatOpeners(cwd: string): ChatOpeners {
  return {
    openAgent: (ask) => openAgentSession({api: 'auto', discovery: true, maxTurns: 20, yes: false, cwd, env: process.env, home: homedir()}, {ask}),
    openAcp: async (agentCommand, ask) =>
      openAcpSession(
        {agent: agentCommand, cwd, autoApprove: false, connectTimeoutSeconds: 60, showAgentLog: true},
        await projectPermit(cwd, {yes: false, ask, yesFlag: '--auto-approve'}),
      ),
  };
}

/** Where the last ACP agent command is kept between runs of the TUI. */
export const chatStatePath = () => join(workbenchHome(), 'chat.json');

function readAcpCommand(path: string): string | undefined {
  try {
    const kept = (JSON.parse(readFileSync(path, 'utf8')) as {acpCommand?: unknown}).acpCommand;
    return typeof kept === 'string' && kept.trim() ? kept : undefined;
  } catch {
    // Never written, or not ours to read: nothing is offered, the user types the command.
    return undefined;
  }
}

function keepAcpCommand(path: string, command: string): void {
  try {
    ensureDirectory(dirname(path));
    writeFileAtomic(path, JSON.stringify({version: 1, acpCommand: command}, null, 2) + '\n');
  } catch {
    // A convenience: the switch itself went through, only the next offer is lost.
  }
}

export function createChatPort(openers: ChatOpeners, statePath: string = chatStatePath()): ChatPort {
  const open = new Set<ChatSession>();
  let acpCommand: string | undefined = readAcpCommand(statePath);
  const kept = (session: ChatSession): ChatSession => {
    open.add(session);
    // A session the pane closes (a switch) leaves the set; the rest close with the TUI.
    return {
      kind: session.kind,
      header: session.header,
      send: (prompt, onEvent) => session.send(prompt, onEvent),
      cancel: () => session.cancel(),
      close: async () => {
        open.delete(session);
        await session.close();
      },
    };
  };
  return {
    openAgent: async (ask) => kept(await openers.openAgent(ask)),
    async openDatabase(ask) {
      if (!openers.openDatabase) throw new WorkbenchError('not_found', 'no GraphQL service to chat with here');
      return kept(await openers.openDatabase(ask));
    },
    openAcp: async (command, ask) => {
      acpCommand = command;
      keepAcpCommand(statePath, command);
      return kept(await openers.openAcp(command, ask));
    },
    lastAcpCommand: () => acpCommand,
    close: async () => {
      const sessions = [...open];
      open.clear();
      await Promise.allSettled(sessions.map((session) => session.close()));
    },
  };
}
