import {mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {openAcpSession} from '../../../source/agent/acp/session.js';
import type {AcpSessionOptions, AgentEvent, ChatSession, Permit, PermissionTool, ToolRow, TranscriptRow} from '../../../source/agent/types.js';
import {isWorkbenchError} from '../../../source/core/errors.js';
import {repoRoot} from '../../helpers/cli.js';

const stub = join(repoRoot, 'fixtures/acp-agent/stub-agent.mjs');
const agentCommand = (...flags: string[]) => [process.execPath, stub, ...flags].join(' ');

/** A permit for these tests only (the real one, with rules, is permissions/permit.ts): allows or refuses everything, and records what it was asked. */
function testPermit(allow: boolean, asked: Array<{tool: PermissionTool; argument: string; preview?: string}> = []): Permit {
  return async (request) => {
    asked.push(request);
    return {allowed: allow, decision: {action: allow ? 'allow' : 'deny', rule: null, reason: allow ? 'allowed by the test permit' : 'refused by the test permit'}};
  };
}

let dir: string;
let sessions: ChatSession[];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'wb-acp-'));
  sessions = [];
});

afterEach(async () => {
  await Promise.all(sessions.map((session) => session.close()));
  rmSync(dir, {recursive: true, force: true});
});

async function open(overrides: Partial<AcpSessionOptions> = {}, permit: Permit = testPermit(false)): Promise<ChatSession> {
  const session = await openAcpSession({agent: agentCommand(), cwd: dir, autoApprove: false, connectTimeoutSeconds: 20, showAgentLog: false, ...overrides}, permit);
  sessions.push(session);
  return session;
}

/** Sends a prompt and collects what arrives: the rows, and the streamed text. */
async function turn(session: ChatSession, prompt: string): Promise<{rows: TranscriptRow[]; deltas: string[]}> {
  const rows: TranscriptRow[] = [];
  const deltas: string[] = [];
  await session.send(prompt, (event: AgentEvent) => (event.type === 'row' ? rows.push(event.row) : deltas.push(event.text)));
  return {rows, deltas};
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function openError(options: Partial<AcpSessionOptions>): Promise<Error> {
  try {
    await open(options);
  } catch (error) {
    return error as Error;
  }
  throw new Error('the session opened');
}

describe('ACP session against the stub agent (a real subprocess)', () => {
  it('completes the handshake, names the agent in the header, and streams the answer in chunks', async () => {
    const session = await open();
    expect(session.kind).toBe('acp');
    expect(session.header).toEqual({kind: 'notice', text: `acp: ${agentCommand()} (Stub Agent 1.0.0)`});
    const {rows, deltas} = await turn(session, 'hello');
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join('')).toBe('Hello from the stub agent.');
    expect(rows).toEqual([
      {kind: 'answer', text: 'Hello from the stub agent.'},
      {kind: 'notice', text: 'stop: end_turn'},
    ]);
    // The session goes on: a second turn in the same session.
    expect((await turn(session, 'again')).rows.at(-1)).toEqual({kind: 'notice', text: 'stop: end_turn'});
  });

  it('reports usage when the agent does, and a plan as a plan row', async () => {
    const {rows} = await turn(await open(), 'plan usage');
    expect(rows[0]).toEqual({
      kind: 'plan',
      entries: [
        {content: 'Read the code', status: 'completed'},
        {content: 'Run the tests', status: 'in_progress'},
        {content: 'Write the summary', status: 'pending'},
      ],
    });
    expect(rows.at(-1)).toEqual({kind: 'usage', input: 12, output: 34, turns: 1});
  });

  it('asks the permit about a shell tool call and runs it when allowed: the row says which rule decided', async () => {
    const asked: Array<{tool: PermissionTool; argument: string; preview?: string}> = [];
    const {rows} = await turn(await open({}, testPermit(true, asked)), 'tool');
    expect(asked).toEqual([{tool: 'shell', argument: 'npm test', preview: 'npm test'}]);
    expect(rows.map((row) => row.kind)).toEqual(['text', 'tool', 'answer', 'notice']);
    expect(rows[0]).toEqual({kind: 'text', text: 'Running the tests first.'});
    const tool = rows[1] as ToolRow;
    expect(tool).toMatchObject({callId: 'call-test', tool: 'execute', summary: 'execute Run npm test → exit 0', exitCode: 0, detail: '3 tests passed'});
    expect(tool.decision?.reason).toBe('allowed by the test permit');
    expect(tool.error).toBeUndefined();
    expect(rows[2]).toEqual({kind: 'answer', text: 'The tests pass. Hello from the stub agent.'});
  });

  it('refuses a shell tool call when the permit says no: the agent is told, the row says who refused', async () => {
    const {rows} = await turn(await open({}, testPermit(false)), 'tool');
    const tool = rows.find((row) => row.kind === 'tool') as ToolRow;
    expect(tool).toMatchObject({summary: 'execute Run npm test → refused', error: 'refused by the test permit'});
    expect(tool.decision?.action).toBe('deny');
    expect(rows.find((row) => row.kind === 'answer')).toEqual({kind: 'answer', text: 'I was not allowed to run the tests. Hello from the stub agent.'});
  });

  it('asks about an edit with its path inside the workspace and its diff as the preview', async () => {
    const asked: Array<{tool: PermissionTool; argument: string; preview?: string}> = [];
    const {rows} = await turn(await open({}, testPermit(true, asked)), 'edit');
    expect(asked).toHaveLength(1);
    expect(asked[0]?.tool).toBe('edit');
    expect(asked[0]?.argument).toBe('src/app.ts');
    expect(asked[0]?.preview).toContain('-const port = 3000;\n+const port = 8080;');
    const tool = rows.find((row) => row.kind === 'tool') as ToolRow;
    expect(tool).toMatchObject({tool: 'edit', summary: 'edit Edit src/app.ts → done'});
    expect(tool.detail).toContain('+++ src/app.ts');
  });

  it('--show-agent-log: the agent stderr lines become agent-log rows, control characters stripped', async () => {
    const {rows} = await turn(await open({showAgentLog: true}), 'log');
    const logs = rows.filter((row) => row.kind === 'agent-log');
    expect(logs).toEqual([
      {kind: 'agent-log', text: 'auth failed: token expired for stub@example.com'},
      {kind: 'agent-log', text: 'auth failed: retry with `stub login`'},
    ]);
  });

  it('without --show-agent-log the agent stderr is not shown while it works', async () => {
    const {rows} = await turn(await open(), 'log');
    expect(rows.filter((row) => row.kind === 'agent-log')).toEqual([]);
  });

  it('thought chunks are the agent working, not its answer: not shown', async () => {
    const {rows, deltas} = await turn(await open(), 'think');
    expect(deltas.join('')).toBe('Hello from the stub agent.');
    expect(rows.map((row) => row.kind)).toEqual(['answer', 'notice']);
  });

  it('refusal as the stop reason ends the turn with an error row', async () => {
    const {rows} = await turn(await open(), 'refuse');
    expect(rows.at(-1)).toEqual({kind: 'error', code: 'refusal', message: 'the agent refused to continue (stop reason: refusal)'});
  });

  it('launch failure: exactly the message of the spec', async () => {
    const error = await openError({agent: 'no-such-agent-xyz --acp'});
    expect(isWorkbenchError(error)).toBe(true);
    expect(error.message).toBe("Could not launch ACP agent 'no-such-agent-xyz --acp'. Is it installed?");
  });

  it('a file that is not executable is a launch failure', async () => {
    const script = join(dir, 'agent.sh');
    writeFileSync(script, '#!/bin/sh\necho hi\n', {mode: 0o644});
    const error = await openError({agent: script});
    expect(error.message).toBe(`Could not launch ACP agent '${script}'. Is it installed?`);
  });

  it('an agent that exits before the handshake is a launch failure too, with its stderr kept in the details', async () => {
    const error = await openError({agent: agentCommand('--exit-at-once')});
    expect(error.message).toBe(`Could not launch ACP agent '${agentCommand('--exit-at-once')}'. Is it installed?`);
    expect((error as {details?: {stderr?: string[]}}).details?.stderr).toEqual(['stub-agent: cannot start: no config']);
  });

  it('a command line with a shell operator is refused before anything runs', async () => {
    const error = await openError({agent: `${agentCommand()} ; touch ${join(dir, 'pwned')}`});
    expect(error.message).toBe("--agent is one command run without a shell: quote ';' to pass it as an argument");
  });

  it('handshake timeout: the agent is killed and the message says so', async () => {
    const pidFile = join(dir, 'agent.pid');
    const error = await openError({agent: agentCommand('--no-handshake', '--pid-file', pidFile), connectTimeoutSeconds: 1});
    expect(error.message).toBe(`ACP agent '${agentCommand('--no-handshake', '--pid-file', pidFile)}' did not complete the handshake within 1 s`);
    const pid = Number(readFileSync(pidFile, 'utf8'));
    expect(alive(pid)).toBe(false);
  });

  it('malformed JSON during the handshake is an error that says so (not a hang)', async () => {
    const error = await openError({agent: agentCommand('--garbage-handshake')});
    expect(error.message).toBe(`ACP agent '${agentCommand('--garbage-handshake')}' sent malformed JSON during the handshake: Welcome to stub agent! {not json`);
  });

  it('an agent that cannot sign in to its own service: its message is shown', async () => {
    const error = await openError({agent: agentCommand('--auth-required')});
    expect(error.message).toMatch(/could not start a session: .*sign in with `stub login` first/);
    expect((error as {code?: string}).code).toBe('unauthorized');
  });

  it('the agent exits mid-session: the turn ends with an error row and its last stderr lines', async () => {
    const session = await open();
    const {rows, deltas} = await turn(session, 'exit');
    expect(deltas.join('')).toBe('Starting');
    expect(rows).toEqual([
      {kind: 'text', text: 'Starting'},
      {kind: 'agent-log', text: 'stub-agent: lost connection to the model'},
      {kind: 'agent-log', text: 'stub-agent: giving up'},
      {kind: 'error', code: 'agent_exited', message: 'the ACP agent exited (code 3)'},
    ]);
    // A later message is told the same, at once.
    expect((await turn(session, 'hello')).rows.at(-1)).toEqual({kind: 'error', code: 'agent_exited', message: 'the ACP agent exited (code 3)'});
  });

  it('an agent that never answers: cancel() ends the turn with a cancelled row, and the session goes on', async () => {
    const session = await open();
    const rows: TranscriptRow[] = [];
    const sent = session.send('hang', (event) => event.type === 'row' && rows.push(event.row));
    // The prompt is in flight once the agent has it; there is nothing to wait for but our own call.
    await new Promise((resolve) => setImmediate(resolve));
    session.cancel();
    await sent;
    expect(rows).toEqual([{kind: 'error', code: 'cancelled', message: 'cancelled'}]);
    expect((await turn(session, 'hello')).rows.at(-1)).toEqual({kind: 'notice', text: 'stop: end_turn'});
  });

  it('malformed JSON mid-session: the turn ends with an error naming the bad line, and the agent is stopped', async () => {
    const pidFile = join(dir, 'agent.pid');
    const session = await open({agent: agentCommand('--pid-file', pidFile)});
    const {rows} = await turn(session, 'garbage');
    expect(rows.at(-1)).toEqual({kind: 'error', code: 'protocol_error', message: 'the ACP agent sent malformed JSON on stdout: {"jsonrpc":"2.0", this is not json'});
    const pid = Number(readFileSync(pidFile, 'utf8'));
    expect(alive(pid)).toBe(false);
  });

  it('close() ends the agent', async () => {
    const pidFile = join(dir, 'agent.pid');
    const session = await open({agent: agentCommand('--pid-file', pidFile)});
    const pid = Number(readFileSync(pidFile, 'utf8'));
    expect(alive(pid)).toBe(true);
    await session.close();
    expect(alive(pid)).toBe(false);
    await expect(session.send('hello', () => {})).rejects.toThrow('the ACP session is closed');
    // Closing twice is harmless.
    await session.close();
  });

  it('a second message while the first is being answered is refused, not interleaved', async () => {
    const session = await open();
    const first = session.send('hang', () => {});
    await expect(session.send('hello', () => {})).rejects.toThrow('the ACP agent is still answering the previous message');
    session.cancel();
    await first;
  });
});
