import {readFileSync} from 'node:fs';
import {dirname, join} from 'node:path';
import {writeFileAtomic} from '../../core/atomic-write.js';
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
}

/** The Chat pane's port: the openers, the ACP command last used, and the sessions to close when the TUI quits. */
export interface ChatPort extends ChatOpeners {
  /** The agent command of the last switch to ACP, offered again at the next one. */
  lastAcpCommand(): string | undefined;
  close(): Promise<void>;
}

/**
 * Placeholder openers until the agent loop and the ACP client are wired into the TUI: each says
 * so as a one-line error in the pane. Replaced at merge by openers over openAgentSession and
 * openAcpSession.
 */
export function notWiredChatOpeners(): ChatOpeners {
  const notWired = async (): Promise<never> => {
    throw new WorkbenchError('internal', 'chat sessions are not wired into the TUI yet');
  };
  return {openAgent: notWired, openAcp: notWired};
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

export function createChatPort(openers: ChatOpeners = notWiredChatOpeners(), statePath: string = chatStatePath()): ChatPort {
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
