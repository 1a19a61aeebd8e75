/**
 * The agent module's contract (spec 1, agent module; issue 11). Each folder of source/agent fills
 * one part: credentials/ (who pays), signin/ (browser sign-in, tokens), transport/ (the two wire
 * formats through the official SDKs), tools/ (read, edit, shell, and the workbench's own tools),
 * permissions/ (allow/ask/deny rules), loop/ (the turn loop and its transcript), acp/ (an external
 * agent over ACP). Three faces call them: `workbench agent|connect|disconnect|acp`, the TUI's Chat
 * pane, and (later) the GraphQL chat endpoint.
 */

/** `--api`: auto picks chat-completions when a browser sign-in is in play, otherwise messages. */
export type ApiChoice = 'auto' | 'messages' | 'chat-completions';
export type Transport = 'messages' | 'chat-completions';

// ---------------------------------------------------------------------------------------------
// Credentials (spec: "Invoke-Agent credential resolution", fixed order, first hit wins)

/**
 * Which step won. 1 argument; 2 environment; 3 gateway-key; 4 env-file; 5 credential-store;
 * 6 sdk-default (the SDK's own variables), then sign-in (a stored browser sign-in, which the spec's
 * step 6 "ends at"). `--oauth-provider` asks for sign-in directly.
 */
export type CredentialStep = 'argument' | 'environment' | 'gateway-key' | 'env-file' | 'credential-store' | 'sdk-default' | 'sign-in';

/** An API key goes in the vendor's key header; a token is sent as `Authorization: Bearer`. */
export type SecretKind = 'api-key' | 'bearer';

export interface SignInInfo {
  provider: string;
  /** ISO 8601 UTC (`2026-11-24T10:00:00Z`), or null for a key that does not expire (gateway keys). */
  expiresAt: string | null;
  /** The profile's `baseUrl`: where the token is used. */
  baseUrl: string;
  extraHeaders: Record<string, string>;
  /** The token was refreshed just now (within 2 minutes of expiry); the transcript says so. */
  refreshed: boolean;
}

export interface ResolvedCredential {
  step: CredentialStep;
  /** Where it came from, for the auth row: `--api-key`, `MESSAGES_API_KEY`, `.env.local GATEWAY_KEY`, `sign-in gateway`. */
  source: string;
  kind: SecretKind;
  /** Never printed, logged or put in a row; see redact(). */
  secret: string;
  signIn?: SignInInfo;
}

/** What discovery saw and did not use, so a failure can say what was tried and how to fix it. */
export interface CredentialReport {
  credential: ResolvedCredential | null;
  /** Each step looked at, in order, with what it found (`MESSAGES_API_KEY: not set`). */
  tried: string[];
  /** Sign-in tokens of other applications: listed by provider, never read. */
  skipped: Array<{provider: string; where: string; reason: string}>;
  /** Keys for providers this command cannot use (point to `workbench acp`). */
  unusable: Array<{provider: string; where: string}>;
}

export interface CredentialOptions {
  apiKey?: string;
  baseUrl?: string;
  oauthProvider?: string;
  /** false with --no-credential-discovery: steps 3-5 are skipped. */
  discovery: boolean;
  /** The workspace (where `.env.local` is looked for). */
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** The user's home (other tools' credential stores); tests point it at a temp folder. */
  home: string;
}

// ---------------------------------------------------------------------------------------------
// Transport

/** One model request, in a neutral shape each transport translates to its wire format. */
export interface ModelTurnRequest {
  model: string;
  system: string;
  messages: ConversationMessage[];
  tools: ModelToolSpec[];
  maxTokens: number;
  signal?: AbortSignal;
}

export type ConversationMessage =
  | {role: 'user'; text: string}
  | {role: 'assistant'; text: string; toolCalls: ToolCallRequest[]}
  /** The results of the previous assistant message's tool calls, in its order. */
  | {role: 'tool'; results: ToolResult[]};

export interface ToolCallRequest {
  id: string;
  name: string;
  /** Parsed arguments; the raw text when they were not JSON (the tool answers with an error). */
  input: unknown;
}

export interface ToolResult {
  callId: string;
  content: string;
  isError: boolean;
  /** Vision input the tool hands the model beside its text (the GraphQL chat's media connector). */
  images?: ToolImage[];
}

/** An image for the model: its bytes (base64, with their media type) or a URL the endpoint fetches. */
export type ToolImage = {mediaType: 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp'; data: string} | {url: string};

export interface ModelToolSpec {
  name: string;
  description: string;
  /** JSON Schema of the arguments (an object schema). */
  inputSchema: Record<string, unknown>;
}

export interface ModelTurnResult {
  text: string;
  toolCalls: ToolCallRequest[];
  usage: {input: number; output: number};
  /** `end_turn`, `tool_use`, `max_tokens`, `stop` … as the endpoint said it. */
  stopReason: string;
}

export interface ModelTransport {
  readonly kind: Transport;
  /** The full URL requests go to (`…/v1/messages`, `…/chat/completions`), for the auth row. */
  readonly endpoint: string;
  /** One streamed turn; `onDelta` receives text as it arrives. Failures are WorkbenchErrors a user can act on. */
  turn(request: ModelTurnRequest, onDelta: (text: string) => void): Promise<ModelTurnResult>;
}

// ---------------------------------------------------------------------------------------------
// Transcript (spec: auth row first, tool-call rows, the final answer, a closing token row)

export type TranscriptRow =
  | {kind: 'auth'; step: CredentialStep; source: string; endpoint: string; transport: Transport; signIn?: Omit<SignInInfo, 'extraHeaders'>}
  /** Something the user should know that is not an error: a refreshed token, a skipped credential store. */
  | {kind: 'notice'; text: string}
  | ToolRow
  /** Text the model wrote before calling tools (not the final answer). */
  | {kind: 'text'; text: string}
  | {kind: 'answer'; text: string}
  | {kind: 'usage'; input: number; output: number; turns: number}
  | {kind: 'error'; code: string; message: string}
  /** ACP only: the agent's plan entries, and its stderr with --show-agent-log. */
  | {kind: 'plan'; entries: Array<{content: string; status: string}>}
  | {kind: 'agent-log'; text: string};

export interface ToolRow {
  kind: 'tool';
  callId: string;
  /** `read_file`, `edit_file`, `run_shell`, or a workbench tool (`get_errors`, `proc`, …). */
  tool: string;
  /** One line: `read src/app.ts (42 lines)`, `edit src/app.ts (+1 -1)`, `shell npm test → exit 1`. */
  summary: string;
  /** Shown when expanded: the diff of an edit, the (capped) output of a command. */
  detail?: string;
  exitCode?: number;
  /** The tool failed or was refused; the model was told the same. */
  error?: string;
  /** Which rule (or default) let it run or stopped it. */
  decision?: PermissionDecision;
}

/** What the loop and the ACP client emit: rows as they complete, and streamed text of the live turn. */
export type AgentEvent = {type: 'row'; row: TranscriptRow} | {type: 'delta'; text: string};

// ---------------------------------------------------------------------------------------------
// Permissions (`.workbench.kdl`: agent { allow "shell" "npm test*"; ask "edit" "*"; deny "shell" "rm -rf*" })

export type PermissionAction = 'allow' | 'ask' | 'deny';
/** The rule vocabulary: built-in tools and ACP tool kinds map onto these. */
export type PermissionTool = 'read' | 'edit' | 'shell' | 'workbench';

export interface PermissionRule {
  action: PermissionAction;
  tool: PermissionTool | '*';
  /** A glob over the argument: `*` any run of characters, `?` one; the whole argument must match. */
  pattern: string;
  /** `.workbench.kdl:12`, `--yes`, `default`. */
  source: string;
}

export interface PermissionDecision {
  action: PermissionAction;
  /** The rule that decided, or null for the built-in default. */
  rule: PermissionRule | null;
  /** One sentence: `allowed by .workbench.kdl:3 allow "shell" "npm test*"`. */
  reason: string;
  /** A compound shell command, part by part (`a && b | c`): the strictest part decides. */
  parts?: Array<{text: string; decision: PermissionDecision}>;
}

export interface PermissionRequest {
  tool: PermissionTool;
  /** The path, the command, or the tool call's description. */
  argument: string;
  /** What the rules said (always `ask` when the asker is called). */
  decision: PermissionDecision;
  /** A diff of an edit, the command line: what the user is agreeing to. */
  preview?: string;
}

/** The face's answer to an `ask`: `always` adds a session-long allow for the same tool and argument. */
export type PermissionAnswer = 'allow' | 'always' | 'deny';
export type PermissionAsker = (request: PermissionRequest) => Promise<PermissionAnswer>;

/**
 * The one gate every tool call passes (built-in tools and ACP agents' permission requests alike):
 * rules first, then --yes / --auto-approve, then the face's asker. Built by permissions/permit.ts.
 */
export type Permit = (request: {tool: PermissionTool; argument: string; preview?: string}) => Promise<{allowed: boolean; decision: PermissionDecision}>;

// ---------------------------------------------------------------------------------------------
// Tools the loop offers the model

export interface AgentToolContext {
  /** The workspace: relative paths resolve here. */
  cwd: string;
  signal?: AbortSignal;
}

export interface AgentToolOutcome {
  /** What the model receives. */
  content: string;
  isError: boolean;
  /** The transcript row (callId and decision are filled in by the loop). */
  row: Omit<ToolRow, 'kind' | 'callId' | 'decision'>;
}

export interface AgentTool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  permission: PermissionTool;
  /**
   * The argument the rules match (path, command line); throws a WorkbenchError on bad input. With
   * the context, a path is normalised against the workspace (`src/../.env` is `.env`; outside it,
   * absolute), so a rule cannot be walked around with `..`.
   */
  argument(input: unknown, context?: AgentToolContext): string;
  /** What to show when asking (a diff before an edit). */
  preview?(input: unknown, context: AgentToolContext): Promise<string | undefined>;
  /** Whether this tool needs no asking when no rule names it (reads, read-only workbench tools). */
  safeByDefault: boolean;
  run(input: unknown, context: AgentToolContext): Promise<AgentToolOutcome>;
}

// ---------------------------------------------------------------------------------------------
// Sessions: what the faces hold. `workbench agent` sends one prompt; the Chat pane many.

export interface ChatSession {
  /** `agent` talks to a model endpoint (loop/), `acp` to an external agent (acp/), `database` to a served database's chat (source/gql/chat/). */
  readonly kind: 'agent' | 'acp' | 'database';
  /** The first row: the auth row of an agent session, `acp: <command> (<agent name>)` as a notice for ACP. */
  readonly header: TranscriptRow;
  /** One user message, run until the model (or agent) answers; events arrive as they happen. */
  send(prompt: string, onEvent: (event: AgentEvent) => void): Promise<void>;
  /** Stops the turn in flight (the pending send resolves after an `error` row `cancelled`). */
  cancel(): void;
  close(): Promise<void>;
}

/** `workbench agent` flags, shared by the Chat pane. */
export interface AgentSessionOptions {
  api: ApiChoice;
  baseUrl?: string;
  model?: string;
  oauthProvider?: string;
  apiKey?: string;
  discovery: boolean;
  maxTurns: number;
  /** --yes: `ask` becomes allow (deny rules still deny). */
  yes: boolean;
  cwd: string;
  env: NodeJS.ProcessEnv;
  home: string;
}

/** `workbench acp` flags, shared by the Chat pane. */
export interface AcpSessionOptions {
  /** The command line that starts the agent (`gemini --experimental-acp`, `node stub.mjs`). */
  agent: string;
  cwd: string;
  autoApprove: boolean;
  connectTimeoutSeconds: number;
  showAgentLog: boolean;
}
