import React, {useEffect, useMemo, useState} from 'react';
import {Box, render, Static, Text, useApp, useStdout} from 'ink';
import {formatRow} from '../../agent/loop/transcript-text.js';
import type {ChatSession, PermissionAsker, PermissionRequest} from '../../agent/types.js';
import {KeypressProvider} from '../../tui/contexts/KeypressContext.js';
import {useKeypress} from '../../tui/hooks/useKeypress.js';
import {KeyPriority} from '../../tui/key/keyPriority.js';
import {Command, matchesCommand, type Keypress} from '../../tui/key/keyBindings.js';
import {TextBox} from '../../tui/panes/graphql/TextBox.js';
import {finishedTurnLines, turnLines, type ChatLine} from '../../tui/panes/chat/chatLines.js';
import {ChatLineView} from '../../tui/panes/chat/ChatLineView.js';
import {PermissionPrompt, permissionAnswerOf} from '../../tui/panes/chat/PermissionPrompt.js';
import {useChat} from '../../tui/panes/chat/useChat.js';
import {useTextInput} from '../../tui/hooks/useTextInput.js';
import {copyToClipboard} from '../../tui/terminal/clipboard.js';
import {colourlessStream, noColorRequested} from '../../tui/terminal/noColor.js';

/**
 * The permission asker a session is opened with before the chat that answers it exists: the
 * command opens the session with `relay.ask`, then hands the relay to runInlineChat, which
 * attaches its prompt. A request made while nothing is attached waits for the attach.
 */
export interface AskerRelay {
  ask: PermissionAsker;
  attach(handler: PermissionAsker): () => void;
}

export function createAskerRelay(): AskerRelay {
  let handler: PermissionAsker | undefined;
  const waiting: Array<() => void> = [];
  return {
    ask: async (request: PermissionRequest) => {
      while (!handler) await new Promise<void>((resolve) => waiting.push(resolve));
      return handler(request);
    },
    attach(next) {
      handler = next;
      for (const resolve of waiting.splice(0)) resolve();
      return () => {
        if (handler === next) handler = undefined;
      };
    },
  };
}

export interface InlineChatOptions {
  /** The relay the session's permit asks through (createAskerRelay()). */
  asker: AskerRelay;
  stdout?: NodeJS.WriteStream;
  stdin?: NodeJS.ReadStream;
  env?: NodeJS.ProcessEnv;
}

const isCtrl = (press: Keypress, letter: string) => press.name === undefined && press.ctrl && !press.meta && press.input === letter;

/** What is printed once and kept in the terminal's scrollback: the header, then each finished turn. */
type StaticItem = {key: string; lines: ChatLine[]};

export function InlineChat({session, asker, env = process.env}: {session: ChatSession; asker: AskerRelay; env?: NodeJS.ProcessEnv}): React.JSX.Element {
  const {exit} = useApp();
  const {stdout} = useStdout();
  const width = Math.max(20, stdout.columns || 80);
  const rows = Math.max(10, stdout.rows || 24);
  const open = useMemo(
    () => async (_target: unknown, ask: PermissionAsker) => {
      asker.attach(ask);
      return session;
    },
    [session, asker],
  );
  const chat = useChat(open, {start: true, closeOnUnmount: false});
  const [note, setNote] = useState<string>();
  const input = useTextInput(
    (text) => {
      if (!text.trim()) return false;
      if (chat.live) {
        setNote('a turn is running: esc cancels it');
        return false;
      }
      setNote(undefined);
      chat.send(text);
    },
    {history: true},
  );
  const closed = useMemo<ReadonlySet<string>>(() => new Set(), []);

  const items = useMemo<StaticItem[]>(
    () => [
      {key: 'header', lines: formatRow(session.header).map((text) => ({text, tone: 'auth' as const}))},
      ...chat.turns.map((turn) => ({key: String(turn.id), lines: finishedTurnLines(turn, closed, width)})),
    ],
    [session, chat.turns, closed, width],
  );
  // Only the live turn redraws; a turn longer than the screen shows its end (the whole of it is printed when it finishes).
  const liveLines = chat.live ? turnLines(chat.live, closed, width) : [];
  const liveShown = liveLines.slice(-Math.max(1, rows - 8));

  // After the chat is gone, a late ask (a turn ending as the user quits) is refused, not left waiting.
  useEffect(
    () => () => {
      asker.attach(async () => 'deny');
    },
    [asker],
  );

  useKeypress(
    (press) => {
      if (chat.live && matchesCommand(Command.CHAT_CANCEL, press)) {
        chat.cancel();
        setNote('cancelling…');
      } else if (isCtrl(press, 'c')) exit();
      else return false;
      return true;
    },
    {isActive: true, priority: KeyPriority.CRITICAL},
  );
  useKeypress(
    (press) => {
      const answer = permissionAnswerOf(press);
      if (answer) chat.answerPermission(answer);
      return true;
    },
    {isActive: chat.permission !== undefined, priority: KeyPriority.OVERLAY},
  );
  useKeypress(
    (press) => {
      if (isCtrl(press, 'd') && input.text() === '') exit();
      else if (isCtrl(press, 'y')) {
        const answer = chat.lastAnswer();
        setNote(answer === undefined ? 'no answer to copy yet' : copyToClipboard(stdout, answer, env));
      } else input.handle(press);
      return true;
    },
    {isActive: chat.permission === undefined, priority: KeyPriority.INPUT},
  );

  return (
    <>
      <Static items={items}>
        {(item) => (
          <Box key={item.key} flexDirection="column">
            {item.lines.map((line, index) => (
              <ChatLineView key={index} line={line} width={width} />
            ))}
          </Box>
        )}
      </Static>
      <Box flexDirection="column" width={width}>
        {liveShown.map((line, index) => (
          <ChatLineView key={index} line={line} width={width} />
        ))}
        {chat.permission && <PermissionPrompt request={chat.permission.request} width={width} />}
        <TextBox state={input.state} active={!chat.permission} rows={Math.min(3, input.state.lines.length)} width={width} placeholder="message · enter sends" />
        <Text dimColor wrap="truncate-end">
          {note ? `${note} · ` : input.problem && chat.turns.length === 0 && !chat.live ? `${input.problem} · ` : ''}tokens {chat.usage.input} in · {chat.usage.output} out ·{' '}
          {chat.live ? 'esc/ctrl-c cancel' : 'enter send · ↑↓ history · ctrl-y copy answer · ctrl-d quit'}
        </Text>
      </Box>
    </>
  );
}

/**
 * `workbench agent` with no prompt on a TTY: a chat in the terminal's normal screen. Finished
 * turns are printed once through ink's <Static> (they stay in the scrollback, selectable, never
 * redrawn); only the live turn, the prompt and the input box redraw. Resolves when the user quits
 * (Ctrl-D on an empty box, Ctrl-C when no turn runs); the session is closed before it does.
 *
 *   const relay = createAskerRelay();
 *   const session = await openAgentSession(options, {ask: relay.ask});
 *   await runInlineChat(session, {asker: relay});
 */
export async function runInlineChat(session: ChatSession, options: InlineChatOptions): Promise<void> {
  const env = options.env ?? process.env;
  const terminal = options.stdout ?? process.stdout;
  const stdout = noColorRequested(env) ? colourlessStream(terminal) : terminal;
  const instance = render(
    <KeypressProvider>
      <InlineChat session={session} asker={options.asker} env={env} />
    </KeypressProvider>,
    {stdout, stdin: options.stdin ?? process.stdin, exitOnCtrlC: false, patchConsole: false},
  );
  try {
    await instance.waitUntilExit();
  } finally {
    instance.unmount();
    await session.close();
  }
}
