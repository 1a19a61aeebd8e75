import {useCallback, useEffect, useRef, useState} from 'react';
import {describeErrorInFull, isWorkbenchError} from '../../../core/errors.js';
import {toTerminalLine} from '../../../text/terminal-safe.js';
import type {AgentEvent, ChatSession, PermissionAnswer, PermissionAsker, TranscriptRow} from '../../../agent/types.js';
import {lastAnswer, usageOf, withDelta, withRow, type PendingPermission, type Turn, type Usage} from './conversation.js';

export type ChatTarget = {kind: 'agent'} | {kind: 'acp'; command: string} | {kind: 'database'};

/** How a chat face opens its session; the Chat pane's come from its port, the inline chat has one already. */
export type OpenSession = (target: ChatTarget, ask: PermissionAsker) => Promise<ChatSession>;

export interface ChatState {
  target: ChatTarget;
  /** The session's header row (auth, or the ACP agent), or why it could not be opened. */
  header: TranscriptRow | undefined;
  opening: boolean;
  /** Finished turns: each object stays the same once finished, so what is drawn of it is computed once. */
  turns: readonly Turn[];
  live: Turn | undefined;
  permission: PendingPermission | undefined;
  usage: Usage;
}

export interface ChatController extends ChatState {
  send(prompt: string): void;
  cancel(): void;
  answerPermission(answer: PermissionAnswer): void;
  /** Closes the session and opens one on `target` (the conversation so far stays on screen). */
  switchTo(target: ChatTarget): void;
  lastAnswer(): string | undefined;
}

/**
 * The conversation behind the Chat pane and the inline chat: opens the session (when `start` first
 * becomes true), sends prompts one turn at a time, turns the session's events into turns, and
 * holds a permission request until the face answers it. The session's own rows say what
 * happened; a failure to open or a send that throws becomes an `error` row of the conversation.
 */
export function useChat(
  open: OpenSession,
  {start, initial = {kind: 'agent'}, closeOnUnmount = true}: {start: boolean; initial?: ChatTarget; closeOnUnmount?: boolean},
): ChatController {
  const [target, setTarget] = useState<ChatTarget>(initial);
  const [header, setHeader] = useState<TranscriptRow>();
  const [opening, setOpening] = useState(false);
  const [turns, setTurns] = useState<readonly Turn[]>([]);
  const [live, setLive] = useState<Turn>();
  const [permission, setPermission] = useState<PendingPermission>();
  const session = useRef<Promise<ChatSession | undefined>>(undefined);
  const liveRef = useRef<Turn>(undefined);
  const turnsRef = useRef<readonly Turn[]>([]);
  const nextId = useRef(1);
  const unmounted = useRef(false);

  const ask = useCallback<PermissionAsker>(
    (request) =>
      new Promise<PermissionAnswer>((resolve) => {
        if (unmounted.current) return resolve('deny');
        setPermission({
          request,
          answer: (answer) => {
            setPermission(undefined);
            resolve(answer);
          },
        });
      }),
    [],
  );

  const finish = (turn: Turn) => {
    turnsRef.current = [...turnsRef.current, {...turn, done: true}];
    setTurns(turnsRef.current);
  };

  /** A conversation-level turn with no prompt: the error of an open that failed. */
  const note = (rows: TranscriptRow[]) => finish({id: nextId.current++, prompt: '', rows, streamed: '', done: true});

  const openOn = useCallback(
    // A failure is a row of the turn that asked (a send retrying), else a note of its own.
    (next: ChatTarget, report: (rows: TranscriptRow[]) => void = note) => {
      setOpening(true);
      setHeader(undefined);
      const opened = open(next, ask).then(
        (value) => {
          if (unmounted.current) {
            void value.close();
            return undefined;
          }
          setHeader(value.header);
          return value;
        },
        (error: unknown) => {
          if (!unmounted.current) report(openFailureRows(error));
          return undefined;
        },
      );
      session.current = opened;
      void opened.finally(() => {
        if (session.current === opened && !unmounted.current) setOpening(false);
      });
      return opened;
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [open, ask],
  );

  useEffect(() => {
    if (start && !session.current) void openOn(target);
  }, [start, openOn, target]);

  useEffect(
    () => () => {
      unmounted.current = true;
      // The pane's sessions end with it; the inline chat's caller owns its session and closes it.
      if (closeOnUnmount) void session.current?.then((value) => value?.close());
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [],
  );

  const send = (prompt: string) => {
    if (liveRef.current || !prompt.trim()) return;
    const turn: Turn = {id: nextId.current++, prompt, rows: [], streamed: '', done: false};
    liveRef.current = turn;
    setLive(turn);
    const update = (next: Turn) => {
      if (liveRef.current?.id !== turn.id) return;
      liveRef.current = next;
      setLive(next);
    };
    const onEvent = (event: AgentEvent) => {
      const current = liveRef.current;
      if (current?.id !== turn.id) return;
      update(event.type === 'delta' ? withDelta(current, event.text) : withRow(current, event.row));
    };
    const run = async () => {
      // A session that failed to open is tried again with this prompt.
      let current = await session.current;
      if (!current) current = await openOn(target, (rows) => rows.forEach((row) => onEvent({type: 'row', row})));
      if (!current) return;
      await current.send(prompt, onEvent);
    };
    void run()
      .catch((error: unknown) => onEvent({type: 'row', row: {kind: 'error', code: 'send_failed', message: describeErrorInFull(error)}}))
      .finally(() => {
        const done = liveRef.current;
        if (done?.id !== turn.id || unmounted.current) return;
        liveRef.current = undefined;
        setLive(undefined);
        setPermission(undefined);
        // Text streamed with no row after it (a turn cut short) stays as part of the turn.
        finish(done.streamed ? {...done, rows: [...done.rows, {kind: 'text', text: done.streamed}], streamed: ''} : done);
      });
  };

  const cancel = () => {
    if (!liveRef.current) return;
    permission?.answer('deny');
    void session.current?.then((value) => value?.cancel());
  };

  const switchTo = (next: ChatTarget) => {
    if (liveRef.current) cancel();
    const previous = session.current;
    session.current = undefined;
    void previous?.then((value) => value?.close());
    setTarget(next);
    void openOn(next);
  };

  return {
    target,
    header,
    opening,
    turns,
    live,
    permission,
    usage: usageOf(live ? [...turns, live] : turns),
    send,
    cancel,
    answerPermission: (answer) => permission?.answer(answer),
    switchTo,
    lastAnswer: () => lastAnswer(turnsRef.current),
  };
}

/** The rows of an open that failed: what an ACP agent wrote on stderr before it failed the handshake (why, often), then the error. */
function openFailureRows(error: unknown): TranscriptRow[] {
  const stderr = isWorkbenchError(error) ? (error.details as {stderr?: unknown} | undefined)?.stderr : undefined;
  const lines = Array.isArray(stderr) ? stderr.filter((line): line is string => typeof line === 'string') : [];
  return [...lines.map((line): TranscriptRow => ({kind: 'agent-log', text: toTerminalLine(line)})), {kind: 'error', code: 'open_failed', message: describeErrorInFull(error)}];
}
