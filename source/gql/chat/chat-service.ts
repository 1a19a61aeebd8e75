import {runTurns} from '../../agent/loop/run-turns.js';
import type {ConversationMessage, ModelTransport, ToolCallRequest, ToolResult} from '../../agent/types.js';
import {describeError, isWorkbenchError, WorkbenchError} from '../../core/errors.js';
import type {GqlService, UserContext} from '../types.js';
import {chatSchemaOf, type ChatConnector, type ChatTables} from './chat-schema.js';
import {ChatStore, type ConversationId, type StoredConversation, type StoredMessage, timestampNow} from './chat-store.js';
import {connectorTools, type ConnectorOutcome, type PlanProposal} from './connector-tools.js';
import {historyOf, type StoredToolCall} from './history.js';
import {openChatModel} from './model-endpoint.js';
import {runActions} from './table-access.js';

/** What the chat endpoint streams (as server-sent events, `event: <type>`) and a face prints. */
export type ChatEvent =
  | {type: 'text'; text: string}
  | {type: 'tool'; name: string; arguments: unknown; result: string; isError: boolean; summary: string}
  | {type: 'plan'; planId: number | string; table: string; summary: string; operations: PlanProposal['operations']}
  | {type: 'done'; conversationId: ConversationId}
  | {type: 'error'; code: string; message: string; conversationId: ConversationId};

export interface ChatRequest {
  conversationId?: unknown;
  message?: unknown;
}

export interface PlanApproval {
  planId: number | string;
  conversationId: ConversationId;
  approvedBy: string;
  approvedAt: string;
  /** Rows the plan's batch touched. */
  affected: number;
}

/** A message accepted: its conversation, and the turn to run (events as they come; never throws). */
export interface AcceptedMessage {
  conversationId: ConversationId;
  run(onEvent: (event: ChatEvent) => void, signal?: AbortSignal): Promise<void>;
}

export interface Chat {
  tables: ChatTables;
  connectors: ChatConnector[];
  /** Checks the request and finds (or creates) the conversation; throws a WorkbenchError a client can act on. */
  send(user: UserContext, request: ChatRequest): Promise<AcceptedMessage>;
  /** The user's conversations, newest first, with their messages. */
  conversations(user: UserContext): Promise<StoredConversation[]>;
  /** Runs a stored plan through the mutation path with the approving user's rules, and stores the approval. */
  approvePlan(user: UserContext, planId: unknown): Promise<PlanApproval>;
}

export interface ChatOptions {
  /** The model endpoint (default: GqlService:Chat:* through openChatModel). */
  openModel?: () => Promise<{transport: ModelTransport; model: string}>;
  maxTurns?: number;
}

/** Longest user message accepted (characters). */
export const MAX_MESSAGE_CHARS = 32_000;
const TITLE_CHARS = 60;
const MAX_OUTPUT_TOKENS = 4096;

/**
 * The chat of a GraphQL service (spec 3 chat schema and connectors): undefined when the model has
 * no chat tables. Every read and write goes through the service's GraphQL path for the user, so
 * the tables' row rules and hidden columns hold for the conversation, the tools and the plans.
 */
export function openChat(service: GqlService, options: ChatOptions = {}): Chat | undefined {
  const schema = chatSchemaOf(service.model);
  if (!schema.tables) return undefined;
  const store = new ChatStore(service, schema.tables);
  const approving = new Map<string, Promise<PlanApproval>>();
  const tools = connectorTools(service, schema.connectors);
  const byName = new Map(tools.map((tool) => [tool.spec.name, tool]));
  const openModel = options.openModel ?? (() => openChatModel(service.settings.chat));
  let model: Promise<{transport: ModelTransport; model: string}> | undefined;
  const system = [
    'You answer questions about the data of this service, for the signed-in user, with the tools below.',
    'Read with explore_* tools, fetch files with media_* tools. To change data, propose a plan with a plan_* tool: nothing runs until the user approves it.',
    tools.length ? `Tools: ${tools.map((tool) => tool.spec.name).join(', ')}.` : 'No tables are connected: answer from the conversation.',
  ].join('\n');

  return {
    tables: schema.tables,
    connectors: schema.connectors,
    async send(user, request) {
      const message = request.message;
      if (typeof message !== 'string' || message.trim() === '') throw new WorkbenchError('invalid_argument', 'message is required: a non-empty string');
      if (message.length > MAX_MESSAGE_CHARS) throw new WorkbenchError('invalid_argument', `message is longer than ${MAX_MESSAGE_CHARS} characters`);
      const given = request.conversationId === undefined || request.conversationId === null ? undefined : store.parseConversationId(request.conversationId);
      if (given !== undefined) await store.conversation(user, given);
      model ??= openModel().catch((error: unknown) => {
        model = undefined;
        throw error;
      });
      const endpoint = await model;
      const conversationId = given ?? (await store.createConversation(user, titleOf(message)));
      return {
        conversationId,
        run: (onEvent, signal) => runTurn({user, conversationId, message, onEvent, signal: signal ?? new AbortController().signal, endpoint}),
      };
    },
    conversations: (user) => store.list(user),
    approvePlan(user, planId) {
      // Approvals of one plan run one after another: the second then finds the first's approval
      // row and answers 409, instead of both running the plan (one service process; see README).
      const key = String(planId);
      const previous = approving.get(key) ?? Promise.resolve();
      const current = previous.catch(() => undefined).then(() => approvePlan(service, store, schema.connectors, user, planId));
      approving.set(key, current);
      void current
        .catch(() => undefined)
        .finally(() => {
          if (approving.get(key) === current) approving.delete(key);
        });
      return current;
    },
  };

  async function runTurn(turn: {
    user: UserContext;
    conversationId: ConversationId;
    message: string;
    onEvent: (event: ChatEvent) => void;
    signal: AbortSignal;
    endpoint: {transport: ModelTransport; model: string};
  }): Promise<void> {
    const {user, conversationId, onEvent} = turn;
    const add = (role: Parameters<ChatStore['addMessage']>[2], content: string) => store.addMessage(user, conversationId, role, content);
    let failure: {code: string; message: string} | undefined;
    try {
      const earlier = (await store.messages(user, [conversationId])).get(String(conversationId)) ?? [];
      const messages: ConversationMessage[] = [...historyOf(earlier), {role: 'user', text: turn.message}];
      await add('user', turn.message);
      let storedAssistant = -1;
      const callTool = async (call: ToolCallRequest): Promise<{result: ToolResult; row: {kind: 'tool'; callId: string; tool: string; summary: string}}> => {
        // The model's turn that asked for tools is stored once, before its first tool row.
        const last = messages.length - 1;
        const asking = messages[last];
        if (asking?.role === 'assistant' && storedAssistant !== last) {
          await add('assistant', asking.text);
          storedAssistant = last;
        }
        const outcome = await runTool(call, user);
        let content = outcome.content;
        if (outcome.proposal) {
          const planId = await add('plan', JSON.stringify(outcome.proposal));
          content = `plan ${planId} ${content}`;
          onEvent({type: 'plan', planId, table: outcome.proposal.table, summary: outcome.proposal.summary, operations: outcome.proposal.operations});
        }
        const stored: StoredToolCall = {id: call.id, name: call.name, input: call.input, result: content, isError: outcome.isError};
        await add('tool', JSON.stringify(stored));
        onEvent({type: 'tool', name: call.name, arguments: call.input, result: content, isError: outcome.isError, summary: outcome.summary});
        return {
          result: {callId: call.id, content, isError: outcome.isError, ...(outcome.images ? {images: outcome.images} : {})},
          row: {kind: 'tool', callId: call.id, tool: call.name, summary: outcome.summary},
        };
      };
      const outcome = await runTurns(
        {
          transport: turn.endpoint.transport,
          model: turn.endpoint.model,
          system,
          tools: tools.map((tool) => tool.spec),
          callTool,
          maxTurns: options.maxTurns ?? 8,
          maxTokens: MAX_OUTPUT_TOKENS,
          signal: turn.signal,
        },
        messages,
        (event) => {
          if (event.type === 'delta') onEvent({type: 'text', text: event.text});
          else if (event.row.kind === 'error') failure = {code: event.row.code, message: event.row.message};
        },
      );
      if (outcome.ending === 'answer') {
        const answer = messages.at(-1);
        await add('assistant', answer?.role === 'assistant' ? answer.text : '');
        onEvent({type: 'done', conversationId});
        return;
      }
      failure ??= {code: outcome.ending, message: 'the model did not answer'};
    } catch (error) {
      failure = {code: isWorkbenchError(error) ? error.code : 'internal', message: isWorkbenchError(error) ? error.message : 'the chat failed; see the server log'};
    }
    // The user's message stays; no half answer is stored as one: an `error` row says what happened.
    try {
      await add('error', `${failure.code}: ${failure.message}`);
    } catch {
      // The database itself failed: the event still tells the client.
    }
    onEvent({type: 'error', code: failure.code, message: failure.message, conversationId});
  }

  async function runTool(call: ToolCallRequest, user: UserContext): Promise<ConnectorOutcome> {
    const tool = byName.get(call.name);
    if (!tool) return {content: `unknown tool ${call.name}: the tools are ${[...byName.keys()].join(', ') || 'none'}`, isError: true, summary: `${call.name}: unknown tool`};
    try {
      return await tool.run(call.input, user);
    } catch (error) {
      return {content: describeError(error), isError: true, summary: `${call.name}: failed`};
    }
  }
}

function titleOf(message: string): string {
  const line = message.trim().split('\n')[0]!.trim();
  return line.length > TITLE_CHARS ? `${line.slice(0, TITLE_CHARS - 1)}…` : line;
}

async function approvePlan(service: GqlService, store: ChatStore, connectors: ChatConnector[], user: UserContext, given: unknown): Promise<PlanApproval> {
  const key = store.tables.messages.key;
  const planId = key.kind === 'int' ? (typeof given === 'string' && /^\d+$/.test(given) ? Number(given) : given) : String(given);
  if ((key.kind === 'int' && !(typeof planId === 'number' && Number.isSafeInteger(planId) && planId > 0)) || planId === '')
    throw new WorkbenchError('invalid_argument', `the plan id must be a positive whole number (got ${JSON.stringify(given)})`);
  const plan = await store.message(user, planId as number | string);
  if (!plan || plan.role !== 'plan') throw new WorkbenchError('not_found', `no plan ${String(planId)}`);
  await store.conversation(user, plan.conversationId);
  const rows = (await store.messages(user, [plan.conversationId])).get(String(plan.conversationId)) ?? [];
  const earlier = rows.map(approvalOf).find((approval) => approval && String(approval.planId) === String(plan.id));
  if (earlier) throw new WorkbenchError('conflict', `plan ${String(plan.id)} was already approved by ${earlier.approvedBy} at ${earlier.approvedAt}`);
  const proposal = planOf(plan);
  const connector = connectors.find((item) => item.table.key === proposal.table && item.plan);
  if (!connector?.plan) throw new WorkbenchError('conflict', `${proposal.table} is no longer a plan connector: the plan cannot run`);
  const refused = proposal.operations.filter((operation) => !connector.plan!.operations.includes(operation.op));
  if (refused.length > 0)
    throw new WorkbenchError('forbidden', `${refused[0]!.op} is not allowed on ${connector.table.name}: chat-plan-operations lists ${connector.plan.operations.join(', ')}`);
  const affected = await runActions(
    service,
    user,
    connector.table,
    proposal.operations.map((operation) => ({[operation.op]: operation.values})),
  );
  const approval: PlanApproval = {planId: plan.id, conversationId: plan.conversationId, approvedBy: user.auditKey ?? 'anonymous', approvedAt: timestampNow(), affected};
  await store.addMessage(user, plan.conversationId, 'approval', JSON.stringify(approval));
  return approval;
}

function approvalOf(message: StoredMessage): PlanApproval | undefined {
  if (message.role !== 'approval') return undefined;
  try {
    return JSON.parse(message.content) as PlanApproval;
  } catch {
    return undefined;
  }
}

/** A stored plan row's proposal; a row edited into something else is refused, not run. */
function planOf(plan: StoredMessage): PlanProposal {
  try {
    const proposal = JSON.parse(plan.content) as PlanProposal;
    if (typeof proposal.table === 'string' && Array.isArray(proposal.operations)) return proposal;
  } catch {
    // Reported below.
  }
  throw new WorkbenchError('conflict', `plan ${String(plan.id)} is not a readable proposal: it cannot run`);
}
