import {existsSync, mkdirSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {Client} from '@modelcontextprotocol/sdk/client/index.js';
import {StdioClientTransport} from '@modelcontextprotocol/sdk/client/stdio.js';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {cliPath, daemonPid, eventually, killDaemon, makeSandbox, processRunning, runCli, type Sandbox} from '../helpers/cli.js';

/** What agents judge a tool server by (issue 7, items 8–11): schemas, annotations, bounded answers, one error shape, daemon life. */

const BUDGET = 20_000;
let sandbox: Sandbox;
let project: string;
let client: Client | undefined;
let stderr = '';

type Answer = {content: Array<{type: string; text: string}>; structuredContent?: Record<string, unknown>; isError?: boolean};
const first = (answer: unknown) => (answer as Answer).content[0]!.text;
const all = (answer: unknown) => (answer as Answer).content.map((part) => part.text).join('\n');

async function connect(options: {args?: string[]} = {}): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cliPath, 'mcp', ...(options.args ?? [])],
    cwd: project,
    env: sandbox.env as Record<string, string>,
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk) => (stderr += chunk));
  const mcp = new Client({name: 'workbench-test', version: '1.0.0'});
  await mcp.connect(transport);
  return mcp;
}

const call = (name: string, args: Record<string, unknown> = {}) => client!.callTool({name, arguments: args}) as Promise<Answer>;

function makeProject(): void {
  sandbox = makeSandbox();
  project = join(sandbox.dir, 'project');
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({name: 'p', scripts: {hello: 'echo hello'}}));
  writeFileSync(join(project, '.workbench.kdl'), 'scripts {\n  ticker {\n    run "echo tick-started; sleep 60"\n    autostart true\n  }\n}\n');
}

beforeEach(() => {
  stderr = '';
  makeProject();
});

afterEach(async () => {
  await client?.close();
  client = undefined;
  await sandbox.cleanup();
});

describe('tool definitions (item 8)', () => {
  it('gives every tool a title, true annotations, strict schemas with defaults and enums, and an example; the server says how to use them', async () => {
    client = await connect({args: ['--no-daemon']});
    const {tools} = await client.listTools();
    for (const tool of tools) {
      expect(tool.title, tool.name).toBeTruthy();
      expect(tool.annotations?.openWorldHint, tool.name).toBeDefined();
      expect(tool.inputSchema.additionalProperties, tool.name).toBe(false);
      expect(tool.outputSchema?.type, tool.name).toBe('object');
      expect(tool.description, tool.name).toMatch(/Example/);
    }
    const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
    for (const name of ['detect', 'get_errors']) expect(byName[name]!.annotations?.readOnlyHint, name).toBe(true);
    // mark_read changes the read marks: not read-only, and each call marks the next page.
    expect(byName.get_incidents!.annotations).toMatchObject({readOnlyHint: false, destructiveHint: false, idempotentHint: false});
    expect(byName.proc!.annotations).toMatchObject({readOnlyHint: false, destructiveHint: true});
    expect(byName.proc!.description).toMatch(/Changes state: stop, restart, and remove/);
    const errorsProps = byName.get_errors!.inputSchema.properties as Record<string, Record<string, unknown>>;
    expect(errorsProps.limit).toMatchObject({type: 'integer', minimum: 1, default: 25});
    expect(errorsProps.include_warnings).toMatchObject({default: true});
    const procProps = byName.proc!.inputSchema.properties as Record<string, Record<string, unknown>>;
    expect(procProps.action).toMatchObject({enum: ['list', 'status', 'output', 'stop', 'restart', 'remove'], default: 'list'});
    expect((byName.run!.inputSchema.properties as Record<string, Record<string, unknown>>).mode).toMatchObject({enum: ['background', 'foreground'], default: 'background'});
    expect(byName.get_errors!.description).toMatch(/get_incidents/);
    expect(byName.get_incidents!.description).toMatch(/get_errors/);
    expect(client.getInstructions()).toMatch(/get_incidents/);

    const unknownKey = await call('get_errors', {limitt: 5});
    expect(unknownKey.isError).toBe(true);
    expect(JSON.parse(first(unknownKey))).toEqual({error: 'Unknown argument limitt.'});
  });
});

describe('one error shape (item 10)', () => {
  it('answers validation errors as the same {error} tool error as handler errors, in sentences', async () => {
    client = await connect({args: ['--no-daemon']});
    const wrongType = await call('get_errors', {limit: 'ten'});
    expect(wrongType.isError).toBe(true);
    expect(JSON.parse(first(wrongType))).toEqual({error: 'limit must be a number, not "ten".'});
    const zero = await call('get_errors', {limit: 0});
    expect(JSON.parse(first(zero))).toEqual({error: 'limit must be 1 or more, not 0.'});
    const badAction = await call('proc', {action: 'explode'});
    expect(JSON.parse(first(badAction)).error).toMatch(/^action must be one of "list", "status", .*, not "explode"\.$/);
    const handler = await call('get_errors', {proxy_id: 'ghost'});
    expect(handler.isError).toBe(true);
    expect(Object.keys(JSON.parse(first(handler)))).toEqual(['error']);
    const unknownTool = await call('no_such_tool');
    expect(JSON.parse(first(unknownTool)).error).toMatch(/^unknown tool "no_such_tool"/);
  });

  it('answers an initialize without a protocol version with -32602', async () => {
    const result = await runCli(['mcp', '--no-daemon'], {
      env: sandbox.env,
      cwd: project,
      input: JSON.stringify({jsonrpc: '2.0', id: 1, method: 'initialize', params: {capabilities: {}, clientInfo: {name: 't', version: '1'}}}) + '\n',
    });
    const answer = JSON.parse(result.stdout.trim().split('\n')[0]!);
    expect(answer).toMatchObject({jsonrpc: '2.0', id: 1, error: {code: -32602, message: expect.stringContaining('protocolVersion')}});
  });

  it('answers tools/call with arguments null or a list with the {error} tool error, not -32602', async () => {
    const request = (id: number, method: string, params: unknown) => JSON.stringify({jsonrpc: '2.0', id, method, params});
    const input = [
      request(1, 'initialize', {protocolVersion: '2025-06-18', capabilities: {}, clientInfo: {name: 't', version: '1'}}),
      JSON.stringify({jsonrpc: '2.0', method: 'notifications/initialized'}),
      request(2, 'tools/call', {name: 'get_errors', arguments: null}),
      request(3, 'tools/call', {name: 'get_errors', arguments: [1]}),
    ].join('\n');
    const result = await runCli(['mcp', '--no-daemon'], {env: sandbox.env, cwd: project, input: input + '\n'});
    const answers = new Map(
      result.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as {id: number; result?: Answer; error?: unknown})
        .map((answer) => [answer.id, answer]),
    );
    for (const [id, given] of [
      [2, 'null'],
      [3, 'a list'],
    ] as const) {
      const answer = answers.get(id)!;
      expect(answer.error, given).toBeUndefined();
      expect(answer.result!.isError, given).toBe(true);
      expect(JSON.parse(first(answer.result))).toEqual({error: `The arguments must be an object, not ${given}.`});
    }
  });
});

describe('bounded answers and the inbox (items 9, 10)', () => {
  it('keeps proc output under the budget, saying what was left out and how to get it; structured content beside the text', async () => {
    client = await connect();
    await call('run', {cmd: `node -e "for (let i = 0; i < 12000; i++) console.log('line ' + i + ' ' + 'x'.repeat(40))"`, id: 'loud'});
    await eventually(async () => first(await call('proc', {action: 'output', process_id: 'loud', tail: 1})).includes('line 11999'));
    const whole = await call('proc', {action: 'output', process_id: 'loud'});
    const text = first(whole);
    expect(text.length).toBeLessThanOrEqual(BUDGET + 200);
    expect(text).toMatch(/^\[[\d,]+ earlier characters left out of [\d,]+: ask for less with tail \(lines\) or grep\]/);
    expect(text).toContain('line 11999');
    expect(whole.structuredContent).toMatchObject({action: 'output', process_id: 'loud', cut: expect.any(Number)});
    expect(whole.structuredContent!.cut).toBeGreaterThan(0);
    // The CLI is not an agent: it prints the whole ring.
    const cli = await runCli(['proc', 'output', 'loud'], {env: sandbox.env, cwd: project});
    expect(cli.stdout.length).toBeGreaterThan(BUDGET * 10);
  });

  it('says when a list holds fewer than exist, and makes incident ids usable: one whole, unread, mark_read', async () => {
    client = await connect();
    // Twelve distinct errors: distinct words, so neither get_errors' exact merge nor get_incidents' fingerprint (which masks numbers) joins them.
    await call('run', {
      cmd: `node -e "for (let i = 0; i < 12; i++) console.error('Error: failure in step ' + 'abcdefghijkl'[i].repeat(3) + 'x ' + 'z'.repeat(300))"`,
      id: 'errs',
      mode: 'foreground',
    });
    const page = await eventually(async () => {
      const answer = await call('get_errors', {limit: 1});
      return (answer.structuredContent?.total as number) >= 12 ? answer : undefined;
    });
    expect(first(page)).toMatch(/\[showing 1 of (\d+): raise limit \(e\.g\. \{"limit": \1\}\) or narrow with process_id or since\]/);
    expect(page.structuredContent).toMatchObject({shown: 1});
    expect((page.structuredContent!.errors as unknown[]).length).toBe(1);

    const inbox = await call('get_incidents', {});
    const incidents = inbox.structuredContent!.incidents as Array<{id: string; message: string}>;
    expect(incidents.length).toBeGreaterThanOrEqual(12);
    // Each incident shows its id, and the hint to open one is spelled as a tool call.
    for (const incident of incidents) expect(first(inbox)).toContain(` id ${incident.id}\n`);
    expect(first(inbox)).toContain('one whole: {"id": "<id>"}');
    const long = incidents.find((incident) => incident.message.length > 200)!;
    const one = await call('get_incidents', {id: long.id});
    expect(one.isError).toBeFalsy();
    expect(first(one)).toContain(`id: ${long.id}`);
    expect(first(one)).toContain(long.message);
    const missing = await call('get_incidents', {id: 'deadbeef'});
    expect(JSON.parse(first(missing)).error).toMatch(/incident "deadbeef" not found/);

    // A cursor: read five, then only the rest are unread; then nothing is new.
    const five = await call('get_incidents', {unread: true, mark_read: true, limit: 5});
    expect(five.structuredContent).toMatchObject({shown: 5, marked: 5});
    expect(first(five)).toMatch(/showing 5 of \d+: raise limit, or add \{"mark_read": true\} and page through with \{"unread": true\}/);
    expect(first(five)).toContain('marked 5 read; {"unread": true} shows only what is new from here');
    const rest = await call('get_incidents', {unread: true, mark_read: true});
    expect(rest.structuredContent!.total).toBe((five.structuredContent!.total as number) - 5);
    const none = await call('get_incidents', {unread: true});
    expect(none.structuredContent).toMatchObject({total: 0, shown: 0});
    // A new error is unread again.
    await call('run', {cmd: `node -e "console.error('Error: a brand new one')"`, id: 'later', mode: 'foreground'});
    const fresh = await eventually(async () => {
      const answer = await call('get_incidents', {unread: true});
      return (answer.structuredContent!.total as number) > 0 ? answer : undefined;
    });
    expect(first(fresh)).toContain('a brand new one');
  });
});

describe('daemon life (item 11)', () => {
  it('--no-daemon starts no daemon for any tool: proc and run answer a clear error', async () => {
    client = await connect({args: ['--no-daemon']});
    for (const [name, args] of [
      ['proc', {action: 'list'}],
      ['run', {cmd: 'echo hi'}],
    ] as const) {
      const answer = await call(name, args);
      expect(answer.isError, name).toBe(true);
      expect(JSON.parse(first(answer)).error).toMatch(/--no-daemon/);
    }
    expect(first(await call('get_errors'))).toMatch(/=== Errors \(0\) ===/);
    expect(first(await call('get_incidents'))).toMatch(/=== Incidents \(0\) ===/);
    expect(daemonPid(sandbox.home)).toBeUndefined();
    expect(existsSync(join(sandbox.home, 'daemon.sock'))).toBe(false);
  });

  it('finishes autostart before the first tool answers, and even when the session ends at once', async () => {
    client = await connect();
    // No waiting: the first answer already sees the autostarted script.
    const answer = await call('proc', {action: 'list'});
    expect(first(answer)).toMatch(/ticker\s+running/);
    expect(all(answer)).toContain('[workbench] autostarted ticker (.workbench.kdl)');
    await client.close();
    client = undefined;
    await sandbox.cleanup();

    makeProject();
    const short = await connect();
    await short.close();
    const list = await eventually(async () => {
      const result = await runCli(['proc', 'list'], {env: sandbox.env, cwd: project});
      return /ticker\s+running/.test(result.stdout) ? result.stdout : undefined;
    });
    expect(list).toMatch(/ticker/);
  });

  it('after a daemon restart, the next answer says earlier processes are gone and the autostart scripts come back', async () => {
    client = await connect();
    await call('run', {cmd: 'sleep 60', id: 'mine'});
    expect(first(await call('proc', {action: 'list'}))).toMatch(/mine\s+running/);
    const old = daemonPid(sandbox.home)!;
    await runCli(['daemon', 'stop'], {env: sandbox.env});
    // Gone, zombie included (init reaps a detached daemon a second or two late).
    await eventually(() => !processRunning(old));
    const answer = await eventually(async () => {
      const next = await call('proc', {action: 'list'});
      return next.isError ? undefined : next;
    });
    const said = all(answer);
    expect(said).toMatch(/earlier processes, output and alerts are gone/);
    expect(said).toMatch(/autostarted again ticker/);
    expect(first(answer)).not.toContain('mine');
    expect(first(await call('proc', {action: 'list'}))).toMatch(/ticker\s+running/);
    killDaemon(sandbox.home);
  });
});
