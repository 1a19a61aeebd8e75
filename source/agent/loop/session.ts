import {WorkbenchError} from '../../core/errors.js';
import {loadProjectConfig} from '../../project/config.js';
import {createToolContext} from '../../tools/context.js';
import {describeNoCredential} from '../credentials/describe.js';
import {redact} from '../credentials/redact.js';
import {resolveCredential} from '../credentials/resolve.js';
import {createPermit} from '../permissions/permit.js';
import {agentTools, runToolCall, safeByDefaultOf} from '../tools/index.js';
import {openTransport} from '../transport/open.js';
import {pickTransport} from '../transport/endpoint.js';
import type {AgentEvent, AgentSessionOptions, ChatSession, ConversationMessage, PermissionAsker, ToolResult, ToolRow, TranscriptRow} from '../types.js';
import {runTurns} from './run-turns.js';
import {systemPrompt} from './system-prompt.js';

/** Output tokens a model may write per request: room for a long answer or a whole-file edit. */
const MAX_OUTPUT_TOKENS = 8192;

export interface AgentSessionHooks {
  /** How an `ask` reaches the user; without one (no terminal), asks are refused with how to allow them. */
  ask?: PermissionAsker;
  /** Rows that belong before the first message: discovery's skipped tokens and unusable keys. */
  onNotice?: (row: TranscriptRow) => void;
}

/**
 * A conversation with a model endpoint (`workbench agent`, the Chat pane): the credential is
 * resolved once in the spec's order, the transport picked and checked, the project's permission
 * rules loaded; each `send` runs the loop on the same conversation. Throws a WorkbenchError a user
 * can act on when no credential resolves (naming every step tried) or the endpoint is refused.
 */
export async function openAgentSession(given: AgentSessionOptions, hooks: AgentSessionHooks = {}): Promise<ChatSession> {
  // The project's `agent { api …; base-url …; model … }` fills what the flags leave open (the
  // Chat pane has no flags); `--api auto` counts as open, a named transport as chosen.
  const config = await loadProjectConfig(given.cwd);
  const project = config?.agentEndpoint ?? {};
  const options: AgentSessionOptions = {
    ...given,
    api: given.api === 'auto' ? (project.api ?? 'auto') : given.api,
    baseUrl: given.baseUrl ?? project.baseUrl,
    model: given.model ?? project.model,
  };
  const report = await resolveCredential({
    apiKey: options.apiKey,
    baseUrl: options.baseUrl,
    oauthProvider: options.oauthProvider,
    discovery: options.discovery,
    cwd: options.cwd,
    env: options.env,
    home: options.home,
  });
  const credential = report.credential;
  // Several lines (each step tried, in order, and how to fix it): faces print details.lines whole.
  if (!credential) {
    const lines = describeNoCredential(report);
    throw new WorkbenchError('unauthorized', lines, {lines});
  }
  // Discovery's findings: given to the face now, or else shown before the first answer.
  const notices: TranscriptRow[] = [
    ...report.skipped.map((skipped): TranscriptRow => ({kind: 'notice', text: `skipped ${skipped.provider} (${skipped.where}): ${skipped.reason}`})),
    ...report.unusable.map((unusable): TranscriptRow => ({
      kind: 'notice',
      text: `found a ${unusable.provider} key (${unusable.where}) that this command cannot use; \`workbench acp\` runs that vendor's own agent`,
    })),
  ];
  if (hooks.onNotice) for (const notice of notices.splice(0)) hooks.onNotice(notice);

  const transportKind = pickTransport(options.api, credential);
  const {transport, model} = await openTransport({transport: transportKind, baseUrl: options.baseUrl, model: options.model, credential});
  const toolContext = createToolContext({cwd: options.cwd});
  const tools = agentTools(toolContext);
  const permit = createPermit({rules: config?.agent ?? [], yes: options.yes, ask: hooks.ask, safeByDefault: safeByDefaultOf(tools)});
  const system = systemPrompt(options.cwd, tools);
  const toolSpecs = tools.map(({name, description, inputSchema}) => ({name, description, inputSchema}));

  const header: TranscriptRow = {
    kind: 'auth',
    step: credential.step,
    source: credential.source,
    endpoint: transport.endpoint,
    transport: transport.kind,
    signIn: credential.signIn && {
      provider: credential.signIn.provider,
      expiresAt: credential.signIn.expiresAt,
      baseUrl: credential.signIn.baseUrl,
      refreshed: credential.signIn.refreshed,
    },
  };
  const messages: ConversationMessage[] = [];
  let inFlight: AbortController | undefined;

  return {
    kind: 'agent',
    header,
    async send(prompt: string, onEvent: (event: AgentEvent) => void) {
      if (inFlight) throw new WorkbenchError('conflict', 'a message is still being answered; wait for it or cancel it first');
      const controller = new AbortController();
      inFlight = controller;
      for (const notice of notices.splice(0)) onEvent({type: 'row', row: notice});
      const before = messages.length;
      messages.push({role: 'user', text: prompt});
      try {
        const outcome = await runTurns(
          {
            transport,
            model,
            system,
            tools: toolSpecs,
            maxTurns: options.maxTurns,
            maxTokens: MAX_OUTPUT_TOKENS,
            signal: controller.signal,
            callTool: async (call, signal) => hideSecret(await runToolCall(tools, call, {cwd: options.cwd, signal}, permit), credential.secret),
          },
          messages,
          onEvent,
        );
        // A message the model never answered is taken back, so the next one does not follow it unanswered.
        if (outcome.ending !== 'answer' && messages.length === before + 1) messages.length = before;
        onEvent({type: 'row', row: {kind: 'usage', input: outcome.usage.input, output: outcome.usage.output, turns: outcome.turns}});
      } finally {
        inFlight = undefined;
      }
    },
    cancel() {
      inFlight?.abort();
    },
    async close() {
      inFlight?.abort();
      toolContext.close();
    },
  };
}

/**
 * The session's own key, should a command print it (`env`, a debug log), is masked in what the
 * model is sent and in the row on screen: the tool itself ran with the user's environment.
 */
function hideSecret(outcome: {result: ToolResult; row: ToolRow}, secret: string): {result: ToolResult; row: ToolRow} {
  const mask = (text: string | undefined) => (text === undefined ? undefined : redact(text, [secret]));
  const {result, row} = outcome;
  return {
    result: {...result, content: mask(result.content)!},
    row: {...row, summary: mask(row.summary)!, ...(row.detail !== undefined ? {detail: mask(row.detail)} : {}), ...(row.error !== undefined ? {error: mask(row.error)} : {})},
  };
}
