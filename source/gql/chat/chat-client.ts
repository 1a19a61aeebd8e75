import {request as httpRequest} from 'node:http';
import {request as httpsRequest} from 'node:https';
import {createParser} from 'eventsource-parser';
import {HTTP_STATUS, WorkbenchError, type ErrorCode} from '../../core/errors.js';
import {httpCall, NoAnswerError} from '../../services/http-call.js';
import {GQL_CLIENT_TIMEOUT_MS} from '../client/wire.js';
import type {GqlService, UserContext} from '../types.js';
import type {ConversationId, StoredConversation} from './chat-store.js';
import {openChat, type ChatEvent, type PlanApproval} from './chat-service.js';

/**
 * The chat of a served database as a face holds it (the TUI's Chat and GraphQL panes, `workbench
 * gql chat`): the same three calls whether the service runs in this process or behind a running
 * `workbench serve graphql` (its `<Path>/chat` routes, server-sent events for the answer).
 */
export interface DatabaseChat {
  /** Said to the user: the endpoint, or `in-process · <settings>`. */
  where: string;
  conversations(): Promise<StoredConversation[]>;
  /** One message; events as they come, the last being `done` or `error`. Never throws for the turn's own failures. */
  send(request: {conversationId?: ConversationId; message: string}, onEvent: (event: ChatEvent) => void, signal?: AbortSignal): Promise<void>;
  approvePlan(planId: ConversationId): Promise<PlanApproval>;
}

const NO_CHAT = 'this database has no chat: mark a conversations table (chat-conversations: enabled) and a messages table (chat-messages: enabled) — source/gql/chat/README.md';

/** The service in this process, for one user (the CLI's and the TUI's anonymous caller, or --claims). */
export function localChat(service: GqlService, user: UserContext): DatabaseChat {
  const chat = openChat(service);
  if (!chat) throw new WorkbenchError('not_found', NO_CHAT);
  return {
    where: `in-process · ${service.settings.source}`,
    conversations: () => chat.conversations(user),
    async send(request, onEvent, signal) {
      const accepted = await chat.send(user, request);
      await accepted.run(onEvent, signal);
    },
    approvePlan: (planId) => chat.approvePlan(user, planId),
  };
}

/** A running server's chat routes under its GraphQL endpoint (`http://127.0.0.1:7702/graphql` → `/graphql/chat`). */
export function remoteChat(endpoint: URL, token?: string): DatabaseChat {
  const base = `${endpoint.href.replace(/\/+$/, '')}/chat`;
  const headers = (json: boolean): Record<string, string> => ({
    accept: 'application/json',
    ...(json ? {'content-type': 'application/json'} : {}),
    ...(token ? {authorization: `Bearer ${token}`} : {}),
  });
  const call = async <T>(method: string, path: string): Promise<T> => {
    let answer;
    try {
      // Listing and approving wait as long as any call of the GraphQL client (a plan's batch may write many rows).
      answer = await httpCall(new URL(`${base}${path}`), {method, headers: headers(false), timeoutMs: GQL_CLIENT_TIMEOUT_MS});
    } catch (error) {
      if (error instanceof NoAnswerError) throw new WorkbenchError('daemon_not_connected', `the GraphQL server at ${endpoint.href} did not answer (${error.reason})`);
      throw error;
    }
    return answerOf<T>(answer.status, answer.text);
  };
  return {
    where: base,
    conversations: async () => (await call<{conversations: StoredConversation[]}>('GET', '/conversations')).conversations,
    approvePlan: async (planId) => (await call<{approval: PlanApproval}>('POST', `/plans/${encodeURIComponent(String(planId))}/approve`)).approval,
    send: (request, onEvent, signal) => streamTurn(new URL(base), headers(true), request, onEvent, signal),
  };
}

/** A JSON answer, or the server's `{error: {code, message}}` as the error it names. */
function answerOf<T>(status: number, text: string): T {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new WorkbenchError('internal', `the chat answered ${status} with something other than JSON`);
  }
  if (status >= 200 && status < 300) return parsed as T;
  const error = (parsed as {error?: {code?: string; message?: string}}).error;
  // The server's own code when it is one of ours, so a face shows the same error either way.
  const code = error?.code !== undefined && Object.hasOwn(HTTP_STATUS, error.code) ? (error.code as ErrorCode) : status >= 500 ? 'internal' : 'invalid_argument';
  throw new WorkbenchError(code, error?.message ?? `the chat answered ${status}`);
}

/** POST one message and read the server-sent events until the stream ends. */
function streamTurn(
  url: URL,
  headers: Record<string, string>,
  request: {conversationId?: ConversationId; message: string},
  onEvent: (event: ChatEvent) => void,
  signal?: AbortSignal,
): Promise<void> {
  const body = JSON.stringify(request);
  return new Promise((resolve, reject) => {
    let last: ChatEvent | undefined;
    const emit = (event: ChatEvent) => {
      last = event;
      onEvent(event);
    };
    const fail = (message: string) => {
      // The turn's own failure is an event, as in-process; the conversation id is whatever we had.
      if (last?.type !== 'done' && last?.type !== 'error') emit({type: 'error', code: 'stream_ended', message, conversationId: request.conversationId ?? ''});
      resolve();
    };
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const outgoing = send(url, {method: 'POST', headers: {...headers, accept: 'text/event-stream', 'content-length': Buffer.byteLength(body)}, signal}, (response) => {
      const status = response.statusCode ?? 0;
      if (!(response.headers['content-type'] ?? '').startsWith('text/event-stream')) {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          try {
            answerOf(status, Buffer.concat(chunks).toString('utf8'));
            reject(new WorkbenchError('internal', `the chat answered ${status} without an event stream`));
          } catch (error) {
            reject(error instanceof Error ? error : new Error(String(error)));
          }
        });
        return;
      }
      const parser = createParser({
        onEvent(message) {
          try {
            emit(JSON.parse(message.data) as ChatEvent);
          } catch {
            // A line that is not JSON is not ours to show; the stream goes on.
          }
        },
      });
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => parser.feed(chunk));
      response.on('end', () => fail('the server ended the answer early'));
      response.on('error', () => fail('the connection to the server broke'));
    });
    outgoing.on('error', (error: NodeJS.ErrnoException) => {
      if (signal?.aborted) return fail('cancelled');
      if (last) return fail(`the connection to the server broke (${error.code ?? error.message})`);
      reject(new WorkbenchError('daemon_not_connected', `the GraphQL server at ${url.origin} did not answer (${error.code ?? error.message})`));
    });
    outgoing.end(body);
  });
}
