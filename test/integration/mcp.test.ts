import {mkdirSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {Client} from '@modelcontextprotocol/sdk/client/index.js';
import {StdioClientTransport} from '@modelcontextprotocol/sdk/client/stdio.js';
import {afterAll, afterEach, beforeAll, beforeEach, describe, expect, it} from 'vitest';
import {cliPath, eventually, makeSandbox, runCli, type Sandbox} from '../helpers/cli.js';

let sandbox: Sandbox;
let client: Client;
let project: string;
let stderr = '';

type TextResult = {content: Array<{type: string; text: string}>; isError?: boolean};
const text = (result: unknown) => (result as TextResult).content.map((part) => part.text).join('');

async function connect(cwd: string): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cliPath, 'mcp'],
    cwd,
    env: sandbox.env as Record<string, string>,
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk) => (stderr += chunk));
  const mcp = new Client({name: 'workbench-test', version: '1.0.0'});
  await mcp.connect(transport);
  return mcp;
}

// One home, so one daemon, for the file: each test has a project of its own, whose processes the
// daemon keeps apart from the others'.
let projects = 0;
beforeAll(() => void (sandbox = makeSandbox()));
afterAll(async () => await sandbox.cleanup());

beforeEach(() => {
  stderr = '';
  projects += 1;
  project = join(sandbox.dir, `project-${projects}`);
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({name: 'p', scripts: {hello: 'echo hello-script'}}));
  writeFileSync(
    join(project, '.workbench.kdl'),
    'scripts {\n  ticker {\n    run "echo tick-started; sleep 60"\n    autostart true\n  }\n  manual {\n    run "echo manual"\n  }\n}\n',
  );
});

afterEach(async () => {
  await client?.close();
});

describe('workbench mcp', () => {
  it('serves the tools from the registry and autostarts the project scripts at initialize', async () => {
    client = await connect(project);
    const {tools} = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(['currentpage', 'detect', 'get_errors', 'get_incidents', 'proc', 'proxy', 'proxylog', 'run', 'snapshot']);
    const getErrors = tools.find((tool) => tool.name === 'get_errors')!;
    expect(Object.keys(getErrors.inputSchema.properties ?? {}).sort()).toEqual(['include_warnings', 'limit', 'process_id', 'proxy_id', 'raw', 'since'].sort());

    const list = await eventually(async () => {
      const answer = text(await client.callTool({name: 'proc', arguments: {action: 'list'}}));
      return answer.includes('ticker') ? answer : undefined;
    });
    expect(list).toMatch(/ticker\s+running/);
    expect(list).not.toContain('manual');
    // The same processes are seen by the CLI in the same project: one daemon per home.
    const cliList = await runCli(['proc', 'list'], {env: sandbox.env, cwd: project});
    expect(cliList.stdout).toMatch(/ticker\s+running/);
  });

  it('runs detect, run and proc, and answers get_errors in compact and raw form', async () => {
    client = await connect(project);
    const detect = text(await client.callTool({name: 'detect', arguments: {}}));
    expect(detect).toContain('hello');

    const started = await client.callTool({name: 'run', arguments: {cmd: `node -e "setTimeout(()=>{throw new TypeError('boom from test')},10)"`, id: 'thrower'}});
    expect(text(started)).toContain('thrower');
    const raw = await eventually(async () => {
      const answer = JSON.parse(text(await client.callTool({name: 'get_errors', arguments: {raw: true}})));
      return answer.some((entry: {category: string}) => entry.category === 'TypeError') ? answer : undefined;
    });
    const entry = raw.find((candidate: {category: string}) => candidate.category === 'TypeError');
    expect(Object.keys(entry)).toEqual(['source', 'severity', 'category', 'message', 'location', 'page', 'count', 'last_seen']);
    expect(entry).toMatchObject({source: 'process:thrower', severity: 'error', page: ''});
    expect(entry.message).toContain('boom from test');

    const compact = text(await client.callTool({name: 'get_errors', arguments: {}}));
    expect(compact).toMatch(/^=== Errors \(\d+\) ===/);
    expect(compact).toContain('[process:thrower] TypeError (1x,');
    expect(compact).toContain('=== Warnings (');

    const foreground = text(await client.callTool({name: 'run', arguments: {cmd: 'echo fg-output; exit 4', id: 'fg', mode: 'foreground'}}));
    expect(foreground).toContain('fg exited 4');
    expect(foreground).toContain('fg-output');

    const incidents = text(await client.callTool({name: 'get_incidents', arguments: {}}));
    expect(incidents).toMatch(/=== Incidents \(\d+\) ===/);
    expect(incidents).toContain('error:');
  });

  it('turns wrong argument types and unknown ids into tool errors, and keeps serving', async () => {
    client = await connect(project);
    const wrongType = (await client.callTool({name: 'get_errors', arguments: {limit: 'ten'}})) as TextResult;
    expect(wrongType.isError).toBe(true);
    const negative = (await client.callTool({name: 'get_errors', arguments: {limit: -1}})) as TextResult;
    expect(negative.isError).toBe(true);
    expect(JSON.parse(text(negative))).toEqual({error: expect.stringMatching(/limit/)});
    const proxy = (await client.callTool({name: 'get_errors', arguments: {proxy_id: 'ghost'}})) as TextResult;
    expect(proxy.isError).toBe(true);
    expect(JSON.parse(text(proxy)).error).toMatch(/^proxy "ghost" not found: /);
    const since = (await client.callTool({name: 'get_errors', arguments: {since: 'soon'}})) as TextResult;
    expect(since.isError).toBe(true);
    const unknownProc = (await client.callTool({name: 'proc', arguments: {action: 'output', process_id: 'ghost'}})) as TextResult;
    expect(JSON.parse(text(unknownProc)).error).toContain('process "ghost" not found');
    const badAction = (await client.callTool({name: 'proc', arguments: {action: 'explode'}})) as TextResult;
    expect(badAction.isError).toBe(true);
    const badRun = (await client.callTool({name: 'run', arguments: {cmd: 42}})) as TextResult;
    expect(badRun.isError).toBe(true);
    // Still alive after all that.
    const {tools} = await client.listTools();
    expect(tools.length).toBe(9);
  });

  it('answers a catastrophic grep at once through the proc tool, and still answers after it', async () => {
    client = await connect(project);
    await client.callTool({name: 'run', arguments: {cmd: `node -e "for (let i = 0; i < 2000; i++) console.log('a'.repeat(50) + '!')"`, id: 'evil'}});
    // Grep once the printer has exited: mid-output, the ring may end in a partial line of a's, which `(a+)+$` rightly matches.
    await eventually(async () => /exited 0/.test(text(await client.callTool({name: 'proc', arguments: {action: 'status', process_id: 'evil'}}))));
    const evil = (await client.callTool({name: 'proc', arguments: {action: 'output', process_id: 'evil', grep: '(a+)+$'}})) as TextResult;
    expect(evil.isError).toBeFalsy();
    expect(text(evil)).toBe('');
    const unsupported = (await client.callTool({name: 'proc', arguments: {action: 'output', process_id: 'evil', grep: '(?<=a)!'}})) as TextResult;
    expect(unsupported.isError).toBe(true);
    expect(JSON.parse(text(unsupported)).error).toMatch(/^invalid --grep pattern: .*\(\?<=a\)!/);
    expect(text(await client.callTool({name: 'proc', arguments: {action: 'list'}}))).toMatch(/evil\s+(running|exited 0)/);
  });

  it('stays alive after a message over the 10 MiB limit, answering it with an error and the next requests as usual', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [cliPath, 'mcp', '--no-daemon'],
      cwd: project,
      env: sandbox.env as Record<string, string>,
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (chunk) => (stderr += chunk));
    const answers: unknown[] = [];
    client = new Client({name: 'workbench-test', version: '1.0.0'});
    await client.connect(transport);
    const onmessage = transport.onmessage!;
    transport.onmessage = (message) => {
      answers.push(message);
      onmessage(message);
    };
    const stdin = (transport as unknown as {_process: {stdin: NodeJS.WritableStream}})._process.stdin;
    const pad = 'x'.repeat(11 * 1024 * 1024);
    // One with its id first (answered), one with its id after the bulk (dropped: nothing to answer to).
    stdin.write(`{"jsonrpc":"2.0","id":9001,"method":"tools/list","params":{"pad":"${pad}"}}\n`);
    stdin.write(`{"jsonrpc":"2.0","method":"tools/list","params":{"pad":"${pad}"},"id":9002}\n`);
    const {tools} = await client.listTools();
    expect(tools.length).toBe(9);
    expect(text(await client.callTool({name: 'get_errors', arguments: {}}))).toMatch(/Errors \(0\)|No errors/);
    expect(answers).toContainEqual({jsonrpc: '2.0', id: 9001, error: {code: -32600, message: expect.stringContaining('message too large')}});
    expect(answers.some((answer) => (answer as {id?: unknown}).id === 9002)).toBe(false);
    await eventually(() => stderr.split('\n').filter((line) => line.includes('dropped a message of')).length === 2);
  });

  it('writes nothing but protocol to stdout', async () => {
    const result = await runCli(['mcp'], {
      env: sandbox.env,
      cwd: project,
      input: JSON.stringify({jsonrpc: '2.0', id: 1, method: 'initialize', params: {protocolVersion: '2025-06-18', capabilities: {}, clientInfo: {name: 't', version: '1'}}}) + '\n',
    });
    const lines = result.stdout.split('\n').filter((line) => line.trim());
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(JSON.parse(line)).toHaveProperty('jsonrpc', '2.0');
  });
});
