import React, {useEffect, useMemo, useRef, useState} from 'react';
import {Box, Text, useStdout} from 'ink';
import {formatRow} from '../../agent/loop/transcript-text.js';
import {usePorts} from '../contexts/PortsContext.js';
import {useKeypress} from '../hooks/useKeypress.js';
import {useStatusHints} from '../hooks/useStatusHints.js';
import {useTransientMessage} from '../hooks/useTransientMessage.js';
import {Command, lineLabel, matchesCommand, type Keypress} from '../key/keyBindings.js';
import {barHints, keyLine} from '../key/keyTable.js';
import {KeyPriority} from '../key/keyPriority.js';
import {MessageLine} from '../components/MessageLine.js';
import {copyToClipboard} from '../terminal/clipboard.js';
import {TextBox} from './graphql/TextBox.js';
import {finishedTurnLines, turnLines, type ChatLine} from './chat/chatLines.js';
import {ChatLineView} from './chat/ChatLineView.js';
import {PermissionPrompt, permissionAnswerOf, permissionRows} from './chat/PermissionPrompt.js';
import {useChat, type ChatTarget, type OpenSession} from './chat/useChat.js';
import {useTextInput} from '../hooks/useTextInput.js';
import type {PaneDefinition, PaneProps} from './types.js';

type Mode = 'type' | 'browse' | 'acp-command';

const INPUT_ROWS_MAX = 3;

/** `tokens 520 in · 80 out`: the conversation's usage rows, summed. */
export function tokenHint(usage: {input: number; output: number}): string {
  return `tokens ${usage.input} in · ${usage.output} out`;
}

/**
 * The Chat pane: a conversation with a model endpoint (the agent loop) or an ACP agent, through
 * the chat port. The auth row on top, the turns (tool rows one line each, opened with Enter),
 * the live turn's text as it streams, permission prompts inline, an input box with history.
 * The whole conversation stays scrollable (PgUp/PgDn, g/G); a finished turn's lines are computed
 * once, and the frame writer sends only the lines that changed, so a streaming turn does not
 * flicker the rest.
 */
function ChatPane({focused, width, height}: PaneProps): React.JSX.Element {
  const {chat: port} = usePorts();
  const {stdout} = useStdout();
  const [started, setStarted] = useState(false);
  // The session opens when the pane is first focused, not with the TUI: resolving a credential
  // (or starting an ACP agent) waits until the user comes to chat.
  useEffect(() => {
    if (focused && !started) setStarted(true);
  }, [focused, started]);
  const open = useMemo<OpenSession>(
    () => (target, ask) => (target.kind === 'acp' ? port.openAcp(target.command, ask) : target.kind === 'database' ? port.openDatabase(ask) : port.openAgent(ask)),
    [port],
  );
  const chat = useChat(open, {start: started});
  // The mode is read through a ref by the key handlers: keys that arrive together (`i` then `say
  // hello`, typed faster than a frame) each see the mode the key before them chose.
  const [mode, setModeState] = useState<Mode>('type');
  const modeRef = useRef<Mode>('type');
  const setMode = (next: Mode) => {
    modeRef.current = next;
    setModeState(next);
  };
  const [message, setMessage] = useTransientMessage(8000);
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const [selected, setSelected] = useState<string>();
  // Scrolled up: the first line shown; undefined follows the end of the conversation.
  const [top, setTop] = useState<number>();
  const input = useTextInput(
    (text) => {
      if (!text.trim()) return false;
      if (chat.live) {
        setMessage({kind: 'error', text: 'a turn is running: esc cancels it, or wait for the answer'});
        return false;
      }
      setTop(undefined);
      chat.send(text);
    },
    {history: true},
  );
  const command = useTextInput(
    (text) => {
      if (!text.trim()) return false;
      setMode('type');
      switchTo({kind: 'acp', command: text.trim()});
    },
    {singleLine: true},
  );

  const switchTo = (target: ChatTarget) => {
    chat.switchTo(target);
    setMessage({kind: 'info', text: `switched to ${targetName(target)}`});
  };

  // --- layout ---
  const lines = useMemo<ChatLine[]>(() => {
    const all = chat.turns.flatMap((turn) => finishedTurnLines(turn, expanded, width));
    return chat.live ? [...all, ...turnLines(chat.live, expanded, width)] : all;
  }, [chat.turns, chat.live, expanded, width]);
  const items = useMemo(() => lines.flatMap((line, index) => (line.item ? [{item: line.item, index}] : [])), [lines]);

  const shownMessage = message ?? (input.problem ? {kind: 'error' as const, text: input.problem} : undefined);
  const keyLineRows = height >= 8 ? 1 : 0;
  const messageRows = shownMessage ? 1 : 0;
  const inputRows = mode === 'acp-command' ? 2 : Math.min(INPUT_ROWS_MAX, input.state.lines.length);
  const fixedRows = 1 + messageRows + 1 + inputRows + keyLineRows;
  const permissionHeight = chat.permission ? permissionRows(chat.permission.request, Math.max(3, Math.floor((height - fixedRows) / 2))) : 0;
  const conversationRows = Math.max(0, height - fixedRows - permissionHeight);
  const lastTop = Math.max(0, lines.length - conversationRows);
  const start = top === undefined ? lastTop : Math.min(top, lastTop);
  const shown = lines.slice(start, start + conversationRows);
  const pageRef = useRef(conversationRows);
  pageRef.current = conversationRows;

  // --- keys ---
  const scrollTo = (line: number) => setTop(line >= lastTop ? undefined : Math.max(0, line));
  const copy = () => {
    const answer = chat.lastAnswer();
    if (answer === undefined) return setMessage({kind: 'error', text: 'no answer to copy yet'});
    setMessage({kind: 'info', text: copyToClipboard(stdout, answer)});
  };
  const selectStep = (step: number) => {
    if (items.length === 0) return scrollTo(start + step);
    const at = items.findIndex((entry) => entry.item === selected);
    const next = items[at === -1 ? (step < 0 ? items.length - 1 : 0) : Math.max(0, Math.min(items.length - 1, at + step))]!;
    setSelected(next.item);
    if (next.index < start) scrollTo(next.index);
    else if (next.index >= start + conversationRows) scrollTo(next.index - conversationRows + 1);
  };
  const toggle = (item: string | undefined, open: boolean) => {
    if (!item) return;
    setExpanded((current) => {
      const next = new Set(current);
      if (open) next.add(item);
      else next.delete(item);
      return next;
    });
  };
  const scrollKeys = (press: Keypress): boolean => {
    const page = Math.max(1, pageRef.current - 1);
    if (matchesCommand(Command.PAGE_UP, press)) scrollTo(start - page);
    else if (matchesCommand(Command.PAGE_DOWN, press)) scrollTo(start + page);
    else return false;
    return true;
  };

  // Esc or Ctrl-C while a turn runs stops it (above the TUI's own Ctrl-C, which quits).
  useKeypress(
    (press) => {
      if (!matchesCommand(Command.CHAT_CANCEL, press)) return false;
      chat.cancel();
      setMessage({kind: 'info', text: 'cancelling the turn…'});
      return true;
    },
    {isActive: focused && chat.live !== undefined, priority: KeyPriority.CRITICAL + 1},
  );
  useKeypress(
    (press) => {
      const answer = permissionAnswerOf(press);
      if (answer) chat.answerPermission(answer);
      return true;
    },
    {isActive: focused && chat.permission !== undefined, priority: KeyPriority.OVERLAY},
  );
  useKeypress(
    (press) => {
      if (modeRef.current !== 'type') return false;
      if (scrollKeys(press)) return true;
      if (matchesCommand(Command.BACK, press)) setMode('browse');
      else input.handle(press);
      // Every key stays in the box (q types a q, digits too); Ctrl-C still quits, above everything.
      return true;
    },
    {isActive: focused && !chat.permission, priority: KeyPriority.INPUT},
  );
  useKeypress(
    (press) => {
      if (modeRef.current !== 'acp-command') return false;
      if (matchesCommand(Command.INPUT_CANCEL, press)) setMode('type');
      else command.handle(press);
      return true;
    },
    {isActive: focused && !chat.permission, priority: KeyPriority.INPUT},
  );
  useKeypress(
    (press) => {
      if (modeRef.current !== 'browse') return false;
      if (scrollKeys(press)) return true;
      if (matchesCommand(Command.CHAT_TYPE, press)) setMode('type');
      else if (matchesCommand(Command.CHAT_COPY, press)) copy();
      else if (matchesCommand(Command.CHAT_ACP, press)) {
        command.set(port.lastAcpCommand() ?? (chat.target.kind === 'acp' ? chat.target.command : ''));
        setMode('acp-command');
      } else if (matchesCommand(Command.CHAT_MODEL, press) || matchesCommand(Command.CHAT_DATABASE, press)) {
        const next: ChatTarget = matchesCommand(Command.CHAT_MODEL, press) ? {kind: 'agent'} : {kind: 'database'};
        if (chat.target.kind === next.kind) setMessage({kind: 'info', text: `already talking to ${targetName(next)}`});
        else switchTo(next);
      } else if (matchesCommand(Command.UP, press)) selectStep(-1);
      else if (matchesCommand(Command.DOWN, press)) selectStep(1);
      else if (matchesCommand(Command.OUTPUT_TOP, press)) scrollTo(0);
      else if (matchesCommand(Command.OUTPUT_BOTTOM, press)) setTop(undefined);
      else if (matchesCommand(Command.CHAT_TOGGLE, press)) toggle(selected, !expanded.has(selected ?? '') || matchesCommand(Command.RIGHT, press));
      else if (matchesCommand(Command.LEFT, press)) toggle(selected, false);
      else return false;
      return true;
    },
    {isActive: focused && !chat.permission, priority: KeyPriority.PANE},
  );

  const running = chat.live !== undefined;
  const hints = chat.permission
    ? barHints('chat', 'permission')
    : mode === 'browse'
      ? barHints('chat', 'browse')
      : mode === 'acp-command'
        ? barHints('chat', 'acp')
        : barHints('chat', 'type', running ? {only: [Command.CHAT_CANCEL]} : {without: [Command.CHAT_CANCEL]});
  useStatusHints(focused, [tokenHint(chat.usage), ...hints]);

  const header = chat.header
    ? formatRow(chat.header)[0]!
    : chat.opening
      ? `opening ${targetName(chat.target)}…`
      : started
        ? `not connected: ${lineLabel(Command.CHAT_SEND)} sends and tries again`
        : 'connects when focused';
  const state = running ? (chat.permission ? ' · waiting for your answer' : ' · answering…') : '';
  // A stacked pane a few rows high: who it talks to and where the conversation is, nothing to type into.
  if (height < 5)
    return (
      <Box width={width} height={height} flexDirection="column" overflowY="hidden">
        <Text dimColor wrap="truncate-end">
          {header}
          {state}
        </Text>
        <Text dimColor wrap="truncate-end">
          {chat.turns.length} message{chat.turns.length === 1 ? '' : 's'} · {tokenHint(chat.usage)}
        </Text>
      </Box>
    );
  return (
    <Box width={width} height={height} flexDirection="column" overflowY="hidden">
      <Box height={1} width={width}>
        <Text dimColor wrap="truncate-end">
          {header}
          {state}
        </Text>
      </Box>
      {shownMessage && <MessageLine message={shownMessage} width={width} />}
      <Box height={conversationRows} width={width} flexDirection="column" overflowY="hidden">
        {shown.map((line, offset) => (
          <ChatLineView key={start + offset} line={line} width={width} selected={mode === 'browse' && line.item !== undefined && line.item === selected} />
        ))}
      </Box>
      {chat.permission && <PermissionPrompt request={chat.permission.request} width={width} maxRows={permissionHeight} />}
      <Box height={1} width={width}>
        <Text dimColor wrap="truncate-end">
          {'─'.repeat(Math.max(0, width))}
        </Text>
      </Box>
      {mode === 'acp-command' ? (
        <Box flexDirection="column" height={2} width={width}>
          <Text color="cyan" wrap="truncate-end">
            ACP agent command <Text dimColor>(e.g. gemini --experimental-acp) · {keyLine('chat', 'acp')}</Text>
          </Text>
          <TextBox state={command.state} active={focused} rows={1} width={width} placeholder="the command line that starts the agent" />
        </Box>
      ) : (
        <TextBox
          state={input.state}
          active={focused && mode === 'type'}
          rows={inputRows}
          width={width}
          placeholder={
            mode === 'type'
              ? `message ${chat.target.kind === 'acp' ? 'the agent' : chat.target.kind === 'database' ? 'the database' : 'the model'} · ${lineLabel(Command.CHAT_SEND)} sends`
              : `${lineLabel(Command.CHAT_TYPE)} to type`
          }
        />
      )}
      {keyLineRows > 0 && (
        <Box height={1} width={width}>
          <Text dimColor wrap="truncate-end">
            {keyLine('chat', mode === 'browse' ? 'browse' : mode === 'acp-command' ? 'acp' : 'type')}
          </Text>
        </Box>
      )}
    </Box>
  );
}

/** Who a target talks to, as the pane says it. */
function targetName(target: ChatTarget): string {
  return target.kind === 'acp' ? `the ACP agent ${target.command}` : target.kind === 'database' ? "the database's chat" : 'the model endpoint';
}

export const chatPane: PaneDefinition = {
  id: 'chat',
  title: 'Chat',
  Component: ChatPane,
};
