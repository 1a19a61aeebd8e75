import {useEffect, useRef} from 'react';
import type {GqlExecuteResult} from '../../../gql/types.js';
import type {StoredConversation} from '../../../gql/chat/chat-store.js';
import {describeError} from '../../../core/errors.js';
import type {GraphqlPort} from '../../ports/graphql.js';
import {useRefState} from '../../hooks/useRefState.js';
import type {RunState} from './ResultView.js';

type Variables = Record<string, unknown> | undefined;

/** A live subscription keeps its newest results (a busy table would fill memory otherwise). */
const LIVE_RESULTS_KEPT = 200;

export interface Runs {
  state: RunState;
  /** The run as the last key or answer left it. */
  get(): RunState;
  /** A query through the port; true once its answer is shown (false: failed, or a newer run took over). */
  query(query: string, variables: Variables): Promise<boolean>;
  /** A subscription: each change is put on top of the result as it commits, until stopped. */
  subscribe(query: string, variables: Variables): Promise<void>;
  /** Stops the running subscription; false when none runs. */
  stop(): boolean;
  /** The served database's chat conversations (source/gql/chat/) as a result: who said what, oldest first. */
  conversations(): Promise<boolean>;
}

/**
 * What the result shows and the run behind it, through the GraphQL port (a running `serve graphql`,
 * else the service in-process). A new run ends the one before (a subscription stops) and drops its
 * answers; `shown` is called when a new result replaces the old one (the tree starts over).
 */
export function useRuns(port: GraphqlPort, {shown, ended}: {shown: () => void; ended: (error: string) => void}): Runs {
  const [state, get, set] = useRefState<RunState>({state: 'idle'});
  const runId = useRef(0);
  // The stop of a running subscription; a new run, `s` or leaving the TUI ends it.
  const live = useRef<() => void>(undefined);
  useEffect(() => () => live.current?.(), []);

  const begin = () => {
    const id = ++runId.current;
    live.current?.();
    live.current = undefined;
    set({state: 'running'});
    return {id, began: performance.now()};
  };
  const elapsed = (began: number) => Math.round(performance.now() - began);
  const fail = (id: number, error: unknown) => {
    if (id === runId.current) set({state: 'failed', error: describeError(error)});
  };

  return {
    state,
    get,
    async query(query, variables) {
      const {id, began} = begin();
      try {
        const result = await port.run(query, variables);
        if (id !== runId.current) return false;
        set({state: 'done', result, ms: elapsed(began)});
        shown();
        return true;
      } catch (error) {
        fail(id, error);
        return false;
      }
    },
    async subscribe(query, variables) {
      const {id, began} = begin();
      const results: unknown[] = [];
      const errors: NonNullable<GqlExecuteResult['errors']>[number][] = [];
      let field = 'events';
      let count = 0;
      const show = (end?: string) =>
        set({
          state: 'done',
          result: {data: {[field]: [...results]}, ...(errors.length > 0 ? {errors: errors.slice(-20)} : {})},
          ms: elapsed(began),
          live: {events: count, ...(end ? {ended: end} : {})},
        });
      try {
        show();
        shown();
        const stop = await port.subscribe(query, variables, {
          onResult(result) {
            if (id !== runId.current) return;
            const data = result.data ?? {};
            const key = Object.keys(data)[0];
            if (key) {
              field = key;
              results.unshift(data[key]);
              results.length = Math.min(results.length, LIVE_RESULTS_KEPT);
              count += 1;
            }
            errors.push(...(result.errors ?? []));
            show();
          },
          onEnd(error) {
            if (id !== runId.current) return;
            live.current = undefined;
            show(error ?? 'ended');
            if (error) ended(error);
          },
        });
        if (id !== runId.current) stop();
        else live.current = stop;
      } catch (error) {
        fail(id, error);
      }
    },
    stop() {
      if (!live.current) return false;
      // The run is over for the pane: its end (the iterator closing) must not say more than "stopped".
      runId.current += 1;
      live.current();
      live.current = undefined;
      set((current) => (current.state === 'done' && current.live ? {...current, live: {...current.live, ended: 'stopped'}} : current));
      return true;
    },
    async conversations() {
      const {id, began} = begin();
      try {
        const conversations = await (await port.chat()).conversations();
        if (id !== runId.current) return false;
        const data = {conversations: conversations.map(conversationTree)};
        set({state: 'done', result: {data}, ms: elapsed(began), label: `Chat conversations · ${conversations.length}`});
        shown();
        return true;
      } catch (error) {
        fail(id, error);
        return false;
      }
    },
  };
}

/** A stored conversation as the tree shows it: its id and title, then one line per message. */
function conversationTree(conversation: StoredConversation): {id: string | number; title: string | null; messages: string[]} {
  return {
    id: conversation.id,
    title: conversation.title ?? null,
    messages: conversation.messages.map((message) => `${message.createdAt.slice(0, 19)} ${message.role}: ${message.content}`),
  };
}
