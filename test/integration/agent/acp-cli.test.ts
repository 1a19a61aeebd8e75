import {join} from 'node:path';
import * as pty from 'node-pty';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import type {ToolRow, TranscriptRow} from '../../../source/agent/types.js';
import {cliPath, eventually, makeSandbox, repoRoot, runCli, spawnCli, type Sandbox} from '../../helpers/cli.js';

// Built program: node scripts/build.mjs before running these.
const stub = join(repoRoot, 'fixtures/acp-agent/stub-agent.mjs');
const agent = (...flags: string[]) => [process.execPath, stub, ...flags].join(' ');

let sandbox: Sandbox;
beforeEach(() => {
  sandbox = makeSandbox('wb-acp-cli-');
});
afterEach(async () => {
  await sandbox.cleanup();
});

const acp = (args: string[]) => runCli(['acp', ...args], {env: sandbox.env, cwd: sandbox.dir});
const jsonRows = (stdout: string) =>
  stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as TranscriptRow);

describe('workbench acp', () => {
  it('--json: the transcript as JSON lines of rows, header first; --auto-approve lets the tool call run', async () => {
    const result = await acp(['tool plan usage', '--agent', agent(), '--auto-approve', '--json']);
    expect(result.code).toBe(0);
    const rows = jsonRows(result.stdout);
    expect(rows[0]).toEqual({kind: 'notice', text: `acp: ${agent()} (Stub Agent 1.0.0)`});
    expect(rows.map((row) => row.kind)).toEqual(['notice', 'plan', 'text', 'tool', 'answer', 'usage']);
    const tool = rows[3] as ToolRow;
    expect(tool).toMatchObject({tool: 'execute', summary: 'execute Run npm test → exit 0', exitCode: 0});
    expect(tool.decision?.reason).toMatch(/^allowed by --auto-approve \(asks: no rule matches; shell asks by default\)/);
    expect(rows.at(-1)).toEqual({kind: 'usage', input: 12, output: 34, turns: 1});
  });

  it('plain text: the streamed answer on stdout; --no-ui refuses permission requests and the row says why', async () => {
    const result = await acp(['tool', '--agent', agent(), '--no-ui']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Running the tests first.\n');
    expect(result.stdout).toMatch(
      /✗ execute Run npm test → refused: refused: asks: no rule matches; shell asks by default, and --no-ui asks no questions; allow it with --auto-approve or a rule in \.workbench\.kdl/,
    );
    expect(result.stdout).toContain('I was not allowed to run the tests. Hello from the stub agent.\n');
  });

  it('without a terminal to ask on (and without --no-ui), a permission request is refused and says so', async () => {
    const result = await acp(['edit', '--agent', agent(), '--json']);
    const tool = jsonRows(result.stdout).find((row) => row.kind === 'tool') as ToolRow;
    expect(tool.error).toMatch(
      /^refused: asks: no rule matches; edit asks by default, and there is no terminal to ask; allow it with --auto-approve or a rule in \.workbench\.kdl/,
    );
    expect(tool.detail).toContain('+const port = 8080;');
  });

  it('--show-agent-log: the agent stderr as agent-log rows, escape sequences removed', async () => {
    const result = await acp(['log', '--agent', agent(), '--show-agent-log', '--json']);
    expect(result.code).toBe(0);
    expect(jsonRows(result.stdout).filter((row) => row.kind === 'agent-log')).toEqual([
      {kind: 'agent-log', text: 'auth failed: token expired for stub@example.com'},
      {kind: 'agent-log', text: 'auth failed: retry with `stub login`'},
    ]);
  });

  // An agent on the ACP SDK (claude-code-acp) answers its own failure with -32603 "Internal error", the reason in `data`.
  const rootRefusal = 'Error: --dangerously-skip-permissions cannot be used with root/sudo privileges for security reasons';

  it('--show-agent-log: an agent that fails session/new: its stderr as agent-log rows, then the error with the data of its answer', async () => {
    const failing = agent('--fail-session');
    const json = await acp(['hello', '--agent', failing, '--show-agent-log', '--json']);
    expect(json.code).toBe(1);
    const lines = json.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as unknown);
    expect(lines).toEqual([
      {kind: 'agent-log', text: rootRefusal},
      {error: `ACP agent '${failing}' could not start a session: Internal error: Claude Code process exited with code 1 (session/new)`},
    ]);
    const text = await acp(['hello', '--agent', failing, '--show-agent-log']);
    expect(text.stderr).toBe(
      `agent: ${rootRefusal}\nworkbench: ACP agent '${failing}' could not start a session: Internal error: Claude Code process exited with code 1 (session/new)\n`,
    );
  });

  it('without --show-agent-log, a failed session/new still carries the data of the answer, after the last stderr lines', async () => {
    const failing = agent('--fail-session');
    const result = await acp(['hello', '--agent', failing]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `agent: ${rootRefusal}\nworkbench: ACP agent '${failing}' could not start a session: Internal error: Claude Code process exited with code 1 (session/new)\n`,
    );
  });

  it('a prompt the agent fails: --show-agent-log shows its stderr as a row before the error, which carries the data', async () => {
    const shown = await acp(['fail', '--agent', agent(), '--show-agent-log', '--json']);
    expect(shown.code).toBe(1);
    expect(jsonRows(shown.stdout).slice(1)).toEqual([
      {kind: 'agent-log', text: rootRefusal},
      {kind: 'error', code: 'agent_error', message: 'the ACP agent failed: Internal error: Claude Code process exited with code 1 (prompt)'},
    ]);
    const hidden = await acp(['fail', '--agent', agent()]);
    expect(hidden.code).toBe(1);
    expect(hidden.stderr).toBe('error: the ACP agent failed: Internal error: Claude Code process exited with code 1 (prompt)\n');
  });

  it('launch failure: exactly the message of the spec, exit code 1 (and {"error"} with --json)', async () => {
    const result = await acp(['hello', '--agent', 'no-such-agent-xyz']);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe("workbench: Could not launch ACP agent 'no-such-agent-xyz'. Is it installed?\n");
    const json = await acp(['hello', '--agent', 'no-such-agent-xyz', '--json']);
    expect(JSON.parse(json.stdout)).toEqual({error: "Could not launch ACP agent 'no-such-agent-xyz'. Is it installed?"});
  });

  it('an agent that dies at once: the launch message, after what it wrote on stderr', async () => {
    const result = await acp(['hello', '--agent', agent('--exit-at-once')]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`agent: stub-agent: cannot start: no config\nworkbench: Could not launch ACP agent '${agent('--exit-at-once')}'. Is it installed?\n`);
  });

  it('a handshake that never completes: killed after --connect-timeout-seconds, and said so', async () => {
    const result = await acp(['hello', '--agent', agent('--no-handshake'), '--connect-timeout-seconds', '1']);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`workbench: ACP agent '${agent('--no-handshake')}' did not complete the handshake within 1 s\n`);
  });

  it('the agent exits mid-session: its last stderr lines and the exit code, exit code 1', async () => {
    const result = await acp(['exit', '--agent', agent()]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('agent: stub-agent: lost connection to the model\nagent: stub-agent: giving up\nerror: the ACP agent exited (code 3)\n');
  });

  it('malformed JSON from the agent: an error naming the line, not a hang', async () => {
    const result = await acp(['garbage', '--agent', agent()]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('error: the ACP agent sent malformed JSON on stdout: {"jsonrpc":"2.0", this is not json\n');
  });

  it('a stop reason other than end_turn exits 1', async () => {
    const result = await acp(['refuse', '--agent', agent(), '--json']);
    expect(result.code).toBe(1);
    expect(jsonRows(result.stdout).at(-1)).toEqual({kind: 'error', code: 'refusal', message: 'the agent refused to continue (stop reason: refusal)'});
  });

  it('Ctrl-C cancels a turn the agent never answers', async () => {
    const child = spawnCli(['acp', 'hang', '--agent', agent()], {env: sandbox.env, cwd: sandbox.dir});
    let stdout = '';
    let stderr = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
    // The header is printed once the handshake is done and the prompt is about to go.
    await eventually(() => stdout.includes('acp: '));
    child.kill('SIGINT');
    expect(await closed).toBe(1);
    expect(stderr).toBe('error: cancelled\n');
  });

  it.each([
    [['--connect-timeout-seconds', 'abc'], '--connect-timeout-seconds must be a whole number, got "abc"'],
    [['--connect-timeout-seconds', '-1'], '--connect-timeout-seconds must be between 1 and 3600, got -1'],
    [['--connect-timeout-seconds', '0'], '--connect-timeout-seconds must be between 1 and 3600, got 0'],
    [['--connect-timeout-seconds', '99999'], '--connect-timeout-seconds must be between 1 and 3600, got 99999'],
    [['--connect-timeout-seconds', '1.5'], '--connect-timeout-seconds must be a whole number, got "1.5"'],
  ])('garbage %j: one clear line, exit code 1, no agent started', async (flags, message) => {
    const result = await acp(['hello', '--agent', agent(), ...flags]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`workbench: ${message}\n`);
    expect(result.stdout).toBe('');
  });

  it('garbage: no --agent, an empty --agent, no prompt, a shell operator in --agent', async () => {
    const noAgent = await acp(['hello']);
    expect(noAgent.stderr).toBe('workbench: --agent is required: the command that starts the agent (for example --agent "gemini --experimental-acp")\n');
    expect((await acp(['hello', '--agent', '  '])).stderr).toBe(noAgent.stderr);
    const noPrompt = await acp(['--agent', agent()]);
    expect(noPrompt.stderr).toBe('workbench: a prompt is required: workbench acp "<prompt>" --agent <command>\n');
    expect((await acp(['  ', '--agent', agent()])).stderr).toBe(noPrompt.stderr);
    const operator = await acp(['hello', '--agent', `${agent()} && touch pwned`]);
    expect(operator.stderr).toBe("workbench: --agent is one command run without a shell: quote '&&' to pass it as an argument\n");
    for (const result of [noAgent, noPrompt, operator]) expect(result.code).toBe(1);
  });
});

describe('workbench acp on a terminal', () => {
  /** Runs the CLI in a pseudo-terminal and answers the permission question with `answer`. */
  function runOnTerminal(prompt: string, answer: string): Promise<{code: number; output: string}> {
    return new Promise((resolve) => {
      const term = pty.spawn(process.execPath, [cliPath, 'acp', prompt, '--agent', agent()], {cols: 200, rows: 50, cwd: sandbox.dir, env: sandbox.env as Record<string, string>});
      let output = '';
      let answered = false;
      term.onData((data) => {
        output += data;
        if (!answered && output.includes('[y]es / [n]o / [a]lways: ')) {
          answered = true;
          term.write(answer);
        }
      });
      term.onExit(({exitCode}) => resolve({code: exitCode, output}));
    });
  }

  it('asks y/n/a before a tool call; y allows it and the row says the user decided', async () => {
    const {code, output} = await runOnTerminal('tool', 'y\r');
    expect(code).toBe(0);
    expect(output).toContain('allow shell: npm test? (asks: no rule matches; shell asks by default) [y]es / [n]o / [a]lways: ');
    expect(output).toContain('✓ execute Run npm test → exit 0');
    expect(output).toContain('(allowed by you when asked (asks: no rule matches; shell asks by default))');
    expect(output).toContain('The tests pass.');
  });

  it('n refuses it', async () => {
    const {code, output} = await runOnTerminal('tool', 'n\r');
    expect(code).toBe(0);
    expect(output).toContain('✗ execute Run npm test → refused: denied by you when asked');
    expect(output).toContain('I was not allowed to run the tests.');
  });

  it('Ctrl-C while it asks refuses and cancels the turn', async () => {
    const {code, output} = await runOnTerminal('tool', '\x03');
    expect(code).toBe(1);
    expect(output).toContain('error: cancelled');
    expect(output).not.toContain('The tests pass.');
  });
});
