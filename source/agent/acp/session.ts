import * as acp from '@agentclientprotocol/sdk';
import {WorkbenchError, describeError} from '../../core/errors.js';
import {toTerminalLine} from '../../text/terminal-safe.js';
import type {AcpSessionOptions, AgentEvent, ChatSession, Permit, TranscriptRow} from '../types.js';
import {describeAgentError} from './agent-error.js';
import {describeExit, launchAgent, type AgentExit, type AgentProcess} from './agent-process.js';
import {parseAgentCommand} from './command-line.js';
import {excerpt, watchForMalformedLines} from './malformed-lines.js';
import {cancelledAnswer, permissionAnswer} from './permission-answer.js';
import {argumentOf, contentText, permissionToolOf} from './tool-calls.js';
import {TurnRows} from './turn-rows.js';

/** Why the session can go no further. */
type Fault = {kind: 'exited'; exit: AgentExit} | {kind: 'malformed'; line: string} | {kind: 'closed'; error: unknown};

interface Turn {
  rows: TurnRows;
  emit: (event: AgentEvent) => void;
  cancelled: boolean;
  /** Aborted by cancel(): stops waiting for the prompt's answer and for pending permission questions. */
  abort: AbortController;
}

// How long a closed connection waits for the agent's exit, so the row can say how it exited.
const EXIT_AFTER_CLOSE_MS = 1000;
// Lines of the agent's stderr shown with an error when --show-agent-log did not show them already.
export const STDERR_WITH_ERROR = 10;
// Agent-log rows held between turns (the handshake, after a turn) for the next send().
const MAX_HELD_LOG_ROWS = 200;

const launchFailure = (commandLine: string, details?: unknown) => new WorkbenchError('not_found', `Could not launch ACP agent '${commandLine}'. Is it installed?`, details);

/**
 * Starts an external agent and speaks ACP with it over its stdio (spec: Invoke-Acp): the agent is
 * launched in `cwd`, `initialize` (protocol version 1) and `session/new` must complete within
 * `connectTimeoutSeconds` (else the agent is killed and the error says so). Workbench offers the
 * agent no file system or terminal of its own (the capabilities are off): the agent does its own
 * reads, writes and commands, and asks through `session/request_permission`, which goes through
 * `permit` (rules, --auto-approve, the face's asker). It never holds a key: the agent signs in to
 * its own service.
 */
export async function openAcpSession(options: AcpSessionOptions, permit: Permit): Promise<ChatSession> {
  const commandLine = options.agent.trim();
  const command = parseAgentCommand(commandLine);
  let agent: AgentProcess;
  try {
    agent = await launchAgent(command, options.cwd);
  } catch (error) {
    throw launchFailure(commandLine, {cause: describeError(error)});
  }

  let sessionId = '';
  let closed = false;
  let turn: Turn | undefined;
  let fault: Fault | undefined;
  let onFault!: (fault: Fault) => void;
  const faulted = new Promise<Fault>((resolve) => (onFault = resolve));
  const fail = (next: Fault) => {
    if (fault) return;
    fault = next;
    onFault(next);
  };

  // --show-agent-log: stderr lines as rows, live during a turn, otherwise held for the next turn.
  const heldLog: TranscriptRow[] = [];
  if (options.showAgentLog) {
    agent.onStderrLine((line) => {
      const row: TranscriptRow = {kind: 'agent-log', text: toTerminalLine(line)};
      if (turn) turn.emit({type: 'row', row});
      else if (heldLog.push(row) > MAX_HELD_LOG_ROWS) heldLog.shift();
    });
  }

  void agent.exited.then((exit) => fail({kind: 'exited', exit}));
  const output = watchForMalformedLines(agent.output, (line) => fail({kind: 'malformed', line}));

  const app = acp
    .client({name: 'workbench'})
    .onNotification(acp.methods.client.session.update, ({params}) => {
      if (turn && !turn.cancelled && params.sessionId === sessionId) turn.rows.update(params.update);
    })
    .onRequest(acp.methods.client.session.requestPermission, async ({params, signal}) => {
      const current = turn;
      if (!current || current.cancelled || params.sessionId !== sessionId) return cancelledAnswer;
      const state = current.rows.permissionAsked(params.toolCall);
      const tool = permissionToolOf(state.kind);
      const argument = argumentOf(state, options.cwd);
      const preview = tool === 'shell' ? argument : contentText(state, options.cwd);
      const stop = new Promise<'stopped'>((resolve) => {
        for (const source of [signal, current.abort.signal]) source.addEventListener('abort', () => resolve('stopped'), {once: true});
      });
      const answer = await Promise.race([permit({tool, argument, preview}), stop]);
      if (answer === 'stopped' || current.cancelled) return cancelledAnswer;
      current.rows.permissionDecided(state, answer.allowed, answer.decision);
      return permissionAnswer(params.options, answer.allowed);
    });
  const connection = app.connect(acp.ndJsonStream(agent.input, output));
  void connection.closed.then(async () => {
    // stdout closes just before the exit is known: give the exit the chance to be the reason.
    await Promise.race([agent.exited, new Promise((resolve) => setTimeout(resolve, EXIT_AFTER_CLOSE_MS).unref())]);
    fail({kind: 'closed', error: connection.signal.reason});
  });

  let header: TranscriptRow;
  try {
    header = await handshake();
  } catch (error) {
    connection.close();
    // Killed and reaped, its stderr is read to the end: why it failed is usually there.
    await agent.kill();
    throw withStderr(error, agent.stderrTail());
  }

  async function handshake(): Promise<TranscriptRow> {
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), options.connectTimeoutSeconds * 1000)));
    const steps = (async () => {
      const init = await connection.agent
        .request(acp.methods.agent.initialize, {
          protocolVersion: acp.PROTOCOL_VERSION,
          clientCapabilities: {fs: {readTextFile: false, writeTextFile: false}, terminal: false},
          clientInfo: {name: 'workbench', version: '0.1.0'},
        })
        .catch((error: unknown) => {
          throw new WorkbenchError('internal', `ACP agent '${commandLine}' refused the handshake: ${describeAgentError(error)}`);
        });
      if (init.protocolVersion !== acp.PROTOCOL_VERSION) {
        throw new WorkbenchError('internal', `ACP agent '${commandLine}' speaks ACP protocol version ${init.protocolVersion}; workbench speaks version ${acp.PROTOCOL_VERSION}`);
      }
      const created = await connection.agent.request(acp.methods.agent.session.new, {cwd: options.cwd, mcpServers: []}).catch((error: unknown) => {
        // The agent signs in to its own service: when it cannot (auth_required, -32000), its message says how.
        const code = error instanceof acp.RequestError && error.code === -32000 ? 'unauthorized' : 'internal';
        throw new WorkbenchError(code, `ACP agent '${commandLine}' could not start a session: ${describeAgentError(error)}`);
      });
      return {init, created};
    })();
    // A request that failed because the connection went: the fault (exit, bad line) is the reason to report.
    const stepsOrFault = steps.catch(async (error: unknown) => {
      if (connection.signal.aborted) return faulted;
      throw error;
    });
    try {
      const outcome = await Promise.race([stepsOrFault, faulted, timedOut]);
      if (outcome === 'timeout') throw new WorkbenchError('request_timeout', `ACP agent '${commandLine}' did not complete the handshake within ${options.connectTimeoutSeconds} s`);
      if ('kind' in outcome) {
        if (outcome.kind === 'malformed') throw new WorkbenchError('internal', `ACP agent '${commandLine}' sent malformed JSON during the handshake: ${excerpt(outcome.line)}`);
        // Gone before the handshake: it did not start, whatever the reason (its stderr says which).
        throw launchFailure(commandLine, {exit: outcome.kind === 'exited' ? describeExit(outcome.exit) : undefined, stderr: agent.stderrTail()});
      }
      sessionId = outcome.created.sessionId;
      const info = outcome.init.agentInfo;
      const name = info ? ` (${[info.title ?? info.name, info.version].filter(Boolean).join(' ')})` : '';
      return {kind: 'notice', text: `acp: ${commandLine}${name}`};
    } finally {
      clearTimeout(timer);
    }
  }

  /** The rows that end a turn the agent did not finish: its last words on stderr (unless already shown), then why. */
  function faultRows(reason: Fault): TranscriptRow[] {
    const rows: TranscriptRow[] = [];
    if (!options.showAgentLog) for (const line of agent.stderrTail().slice(-STDERR_WITH_ERROR)) rows.push({kind: 'agent-log', text: toTerminalLine(line)});
    if (reason.kind === 'exited') rows.push({kind: 'error', code: 'agent_exited', message: `the ACP agent exited (${describeExit(reason.exit)})`});
    else if (reason.kind === 'malformed') rows.push({kind: 'error', code: 'protocol_error', message: `the ACP agent sent malformed JSON on stdout: ${excerpt(reason.line)}`});
    else rows.push({kind: 'error', code: 'agent_closed', message: `the ACP agent closed the connection: ${describeError(reason.error)}`});
    return rows;
  }

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      closed = true;
      turn?.abort.abort();
      connection.close();
      await agent.kill();
    })();
    return closing;
  };

  return {
    kind: 'acp',
    header,
    async send(prompt, onEvent) {
      if (closed) throw new WorkbenchError('conflict', 'the ACP session is closed');
      if (turn) throw new WorkbenchError('conflict', 'the ACP agent is still answering the previous message');
      for (const row of heldLog.splice(0)) onEvent({type: 'row', row});
      if (fault) {
        for (const row of faultRows(fault)) onEvent({type: 'row', row});
        return;
      }
      const current: Turn = {rows: new TurnRows(options.cwd, onEvent), emit: onEvent, cancelled: false, abort: new AbortController()};
      turn = current;
      const cancelled = new Promise<'cancelled'>((resolve) => current.abort.signal.addEventListener('abort', () => resolve('cancelled'), {once: true}));
      try {
        const response = connection.agent.request(
          acp.methods.agent.session.prompt,
          {sessionId, prompt: [{type: 'text', text: prompt}]},
          {cancellationSignal: current.abort.signal, stopWaitingOnCancel: true},
        );
        let outcome = await Promise.race([
          response.then(
            (value) => ({value}),
            (error: unknown) => ({error}),
          ),
          faulted,
          cancelled,
        ]);
        // A prompt that failed because the connection went: wait for the reason (exit code, bad line).
        if (typeof outcome === 'object' && 'error' in outcome && connection.signal.aborted && !current.cancelled) outcome = await faulted;
        // Updates sent before the answer may still be on their way through the SDK's handlers (microtasks): let them land.
        await new Promise((resolve) => setImmediate(resolve));
        if (outcome === 'cancelled' || current.cancelled) {
          current.rows.finish(false);
          onEvent({type: 'row', row: {kind: 'error', code: 'cancelled', message: 'cancelled'}});
        } else if ('kind' in outcome) {
          current.rows.finish(false);
          for (const row of faultRows(outcome)) onEvent({type: 'row', row});
          // A bad line may have been anything, an answer included: the connection cannot be trusted.
          if (outcome.kind === 'malformed') await close();
        } else if ('error' in outcome) {
          current.rows.finish(false);
          onEvent({type: 'row', row: {kind: 'error', code: 'agent_error', message: `the ACP agent failed: ${describeAgentError(outcome.error)}`}});
        } else {
          const {stopReason} = outcome.value;
          current.rows.finish(stopReason === 'end_turn');
          const usage = usageOf(outcome.value);
          if (usage) onEvent({type: 'row', row: {kind: 'usage', ...usage, turns: 1}});
          if (stopReason === 'end_turn') {
            if (!usage) onEvent({type: 'row', row: {kind: 'notice', text: 'stop: end_turn'}});
          } else {
            onEvent({type: 'row', row: {kind: 'error', code: stopReason, message: stopMessage(stopReason)}});
          }
        }
      } finally {
        turn = undefined;
      }
    },
    cancel() {
      const current = turn;
      if (!current || current.cancelled) return;
      current.cancelled = true;
      // ACP's own cancel: the agent stops its work and answers `cancelled` (a late answer is dropped).
      void connection.agent.notify(acp.methods.agent.session.cancel, {sessionId}).catch(() => {});
      current.abort.abort();
    },
    close,
  };
}

/** Token counts, when the agent reports them (`usage` on the prompt's answer: not yet stable ACP, read defensively). */
function usageOf(response: acp.PromptResponse): {input: number; output: number} | undefined {
  const usage = (response as {usage?: unknown}).usage as {inputTokens?: unknown; outputTokens?: unknown} | null | undefined;
  if (!usage || typeof usage.inputTokens !== 'number' || typeof usage.outputTokens !== 'number') return undefined;
  return {input: usage.inputTokens, output: usage.outputTokens};
}

function stopMessage(reason: acp.StopReason): string {
  switch (reason) {
    case 'refusal':
      return 'the agent refused to continue (stop reason: refusal)';
    case 'max_tokens':
      return 'the agent ran out of tokens (stop reason: max_tokens)';
    case 'max_turn_requests':
      return 'the agent reached its limit of model requests for one turn (stop reason: max_turn_requests)';
    case 'cancelled':
      return 'cancelled';
    default:
      return `the agent stopped: ${String(reason)}`;
  }
}

/** A handshake failure with the agent's last stderr lines in its details (`stderr`), for the face to show. */
function withStderr(error: unknown, stderr: string[]): unknown {
  if (!(error instanceof WorkbenchError) || stderr.length === 0) return error;
  const details = typeof error.details === 'object' && error.details !== null ? error.details : {};
  return new WorkbenchError(error.code, error.message, {...details, stderr});
}
