import {chmodSync, mkdirSync, readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {startModelEndpoint, type ModelEndpoint} from '../../../fixtures/model-endpoint/stand-in.js';
import {makeSandbox, runCli, type Sandbox} from '../../helpers/cli.js';

// `workbench agent` as a user runs it: the built program, the official SDKs, a local stand-in that
// speaks the vendors' wire formats, real files and a real shell in a temp project.
const KEY = 'sk-agent-test-0123456789abcdef';
let sandbox: Sandbox;
let model: ModelEndpoint;
let project: string;
let env: NodeJS.ProcessEnv;

beforeEach(async () => {
  sandbox = makeSandbox('wb-agent-');
  model = await startModelEndpoint({key: KEY});
  project = join(sandbox.dir, 'project');
  mkdirSync(project);
  writeFileSync(join(project, 'greeting.txt'), 'hello world\n');
  env = {...sandbox.env, MESSAGES_API_KEY: KEY};
  // Whatever the machine has must not decide these tests.
  for (const name of ['MESSAGES_AUTH_TOKEN', 'ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN', 'GATEWAY_API_KEY', 'GATEWAY_KEY', 'OPENROUTER_API_KEY', 'OPENAI_API_KEY'])
    delete env[name];
});

afterEach(async () => {
  await model.close();
  await sandbox.cleanup();
});

const agent = (args: string[], options: {env?: NodeJS.ProcessEnv} = {}) =>
  runCli(['agent', ...args, '--base-url', model.url, '--model', 'stand-in-model'], {env: options.env ?? env, cwd: project, timeoutMs: 60_000});

describe('workbench agent: the transcript rows of the spec', () => {
  it('auth row first, then read, edit and shell rows, the streamed answer, and the token row', async () => {
    model.reply(
      {text: 'Reading first.', toolCalls: [{name: 'read_file', input: {path: 'greeting.txt'}}], usage: {input: 100, output: 10}},
      {toolCalls: [{name: 'edit_file', input: {path: 'greeting.txt', old_string: 'hello world', new_string: 'hello agent'}}], usage: {input: 200, output: 20}},
      {toolCalls: [{name: 'run_shell', input: {command: 'cat greeting.txt; exit 3'}}], usage: {input: 300, output: 30}},
      {text: ['The file ', 'now greets ', 'the agent.'], usage: {input: 400, output: 40}},
    );
    const result = await agent(['change the greeting', '--yes']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe(`auth: MESSAGES_API_KEY -> ${model.url}/v1/messages`);
    expect(result.stdout).toMatch(/✓ read greeting\.txt/);
    expect(result.stdout).toMatch(/✓ edit greeting\.txt \(\+1 -1\)/);
    expect(result.stdout).toMatch(/✗ shell cat greeting\.txt; exit 3 → exit 3/);
    expect(result.stdout).toContain('The file now greets the agent.');
    expect(lines.at(-1)).toBe('tokens: 1000 in, 100 out');
    expect(readFileSync(join(project, 'greeting.txt'), 'utf8')).toBe('hello agent\n');
    // The model got each result: the file's text, the diff's outcome, the command's output and exit code.
    const results = JSON.stringify(model.requests.slice(1).map((request) => request.body.messages.at(-1)));
    expect(results).toContain('hello world');
    expect(results).toContain('hello agent');
    expect(results).toMatch(/exit code 3|exit 3/);
    expect(model.requests[0]?.body.model).toBe('stand-in-model');
  });

  it('the key never reaches the model or the screen through a command that prints it', async () => {
    model.reply({toolCalls: [{name: 'run_shell', input: {command: 'echo "key=$MESSAGES_API_KEY"'}}]}, {text: 'done'});
    const result = await agent(['show the environment', '--yes', '--json']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('key=[redacted]');
    expect(result.stdout).not.toContain(KEY);
    expect(JSON.stringify(model.requests[1]?.body)).toContain('key=[redacted]');
    expect(JSON.stringify(model.requests[1]?.body)).not.toContain(KEY);
  });

  it('--json prints one JSON object per row, auth first and usage last', async () => {
    model.reply({toolCalls: [{name: 'read_file', input: {path: 'greeting.txt'}}]}, {text: 'done'});
    const result = await agent(['read it', '--json']);
    expect(result.code).toBe(0);
    const rows = result.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as {kind: string; [key: string]: unknown});
    expect(rows[0]).toMatchObject({kind: 'auth', step: 'environment', source: 'MESSAGES_API_KEY', endpoint: `${model.url}/v1/messages`, transport: 'messages'});
    expect(rows.map((row) => row.kind)).toEqual(['auth', 'tool', 'answer', 'usage']);
    expect(rows[1]).toMatchObject({tool: 'read_file', decision: {action: 'allow'}});
    expect(JSON.stringify(rows)).not.toContain(KEY);
  });

  it('chat-completions carries its transport tag and requests <base>/chat/completions', async () => {
    model.reply({text: 'hi from chat'});
    const result = await runCli(['agent', 'hello', '--api', 'chat-completions', '--base-url', `${model.url}/api/v1`, '--api-key', KEY], {env, cwd: project});
    expect(result.code).toBe(0);
    expect(result.stdout.split('\n')[0]).toBe(`auth: --api-key -> ${model.url}/api/v1/chat/completions [chat-completions]`);
    expect(model.requests[0]?.path).toBe('/api/v1/chat/completions');
  });

  it('what discovery skipped comes after the auth row, and the token it skipped is never read', async () => {
    mkdirSync(join(sandbox.dir, '.claude'));
    writeFileSync(join(sandbox.dir, '.claude', '.credentials.json'), JSON.stringify({claudeAiOauth: {accessToken: 'sk-ant-oat-never-read-me', refreshToken: 'rt-never-read'}}));
    const fromSdk: NodeJS.ProcessEnv = {...env, ANTHROPIC_API_KEY: KEY};
    delete fromSdk.MESSAGES_API_KEY;
    model.reply({text: 'ok'});
    const result = await runCli(['agent', 'hello', '--json', '--base-url', model.url], {env: fromSdk, cwd: project});
    expect(result.code).toBe(0);
    const rows = result.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as {kind: string; step?: string; text?: string});
    expect(rows[0]).toMatchObject({kind: 'auth', step: 'sdk-default'});
    expect(rows[1]).toMatchObject({kind: 'notice', text: expect.stringMatching(/^skipped .*\.claude/)});
    expect(result.stdout + result.stderr).not.toMatch(/never-read/);
  });

  it("the project's agent block names the endpoint and model when no flag does", async () => {
    writeFileSync(join(project, '.workbench.kdl'), `agent {\n  base-url "${model.url}/api/v1"\n  api "chat-completions"\n  model "project-model"\n}\n`);
    model.reply({text: 'from the project settings'});
    const result = await runCli(['agent', 'hello'], {env, cwd: project});
    expect(result.code).toBe(0);
    expect(result.stdout.split('\n')[0]).toBe(`auth: MESSAGES_API_KEY -> ${model.url}/api/v1/chat/completions [chat-completions]`);
    expect(model.requests[0]?.body.model).toBe('project-model');
  });

  it('a stored browser sign-in is used by itself, on chat-completions, with provider, UTC expiry and base in the auth row', async () => {
    const oauth = join(sandbox.config, 'workbench', 'oauth');
    mkdirSync(oauth, {recursive: true});
    writeFileSync(join(oauth, 'gateway.json'), JSON.stringify({baseUrl: `${model.url}/api/v1`}));
    const expires = new Date(Date.now() + 3600_000);
    writeFileSync(join(oauth, 'gateway.token.json'), JSON.stringify({accessToken: KEY, expiresAt: expires.toISOString(), obtainedAt: new Date().toISOString()}), {mode: 0o600});
    const noKey = {...env};
    delete noKey.MESSAGES_API_KEY;
    model.reply({text: 'signed in'});
    const result = await runCli(['agent', 'hello'], {env: noKey, cwd: project});
    expect(result.stderr).toBe('');
    const first = result.stdout.split('\n')[0];
    expect(first).toContain(`-> ${model.url}/api/v1/chat/completions [chat-completions]`);
    expect(first).toContain('gateway');
    expect(first).toContain(`${expires.toISOString().slice(0, 19).replace('T', ' ')} UTC`);
    expect(model.requests[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
  });
});

describe('workbench agent: faults and bad input', () => {
  it('no credential at all: what was tried, in order, and how to fix it', async () => {
    const bare = {...env};
    delete bare.MESSAGES_API_KEY;
    const result = await runCli(['agent', 'hello', '--no-credential-discovery'], {env: bare, cwd: project});
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    const tried = ['--api-key', 'MESSAGES_API_KEY', 'MESSAGES_AUTH_TOKEN'].map((name) => result.stderr.indexOf(name));
    expect(tried.every((at) => at >= 0)).toBe(true);
    expect(tried).toEqual([...tried].sort((a, b) => a - b));
    expect(result.stderr).toContain('workbench connect');
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it('a wrong key: the 401 said plainly, exit 1', async () => {
    const result = await agent(['hello', '--api-key', 'sk-wrong-key']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/refused the credential from --api-key \(401\)/);
    expect(result.stderr + result.stdout).not.toContain('sk-wrong-key');
  });

  it('a doubled version on the messages transport is explained, and nothing is requested', async () => {
    const result = await runCli(['agent', 'hello', '--base-url', `${model.url}/v1`], {env, cwd: project});
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`Use --base-url ${model.url}`);
    expect(model.requests).toHaveLength(0);
  });

  it('an HTML answer is named, not printed', async () => {
    model.fault = 'html';
    const result = await agent(['hello']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/HTML page/);
    expect(result.stderr).not.toContain('<html');
  });

  it('a tool that does not exist and arguments that are not JSON: the tool answers with an error and the loop goes on', async () => {
    model.reply(
      {toolCalls: [{name: 'launch_rockets', input: {}}]},
      {toolCalls: [{name: 'edit_file', rawArguments: '{"path": "greeting.txt", '}]},
      {toolCalls: [{name: 'edit_file', input: {path: 'greeting.txt', old_string: 'not there', new_string: 'x'}}]},
      {text: 'gave up'},
    );
    const result = await agent(['try things', '--yes']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('gave up');
    const answers = model.requests.slice(1, 4).map((request) => JSON.stringify(request.body.messages.at(-1)));
    expect(answers[0]).toMatch(/launch_rockets/);
    expect(answers.every((answer) => answer.includes('"is_error":true'))).toBe(true);
    expect(answers[2]).toMatch(/not found|0 matches|no match/i);
    expect(readFileSync(join(project, 'greeting.txt'), 'utf8')).toBe('hello world\n');
  });

  it('without --yes and without a terminal, a shell command is refused with how to allow it, and a deny rule names its line', async () => {
    writeFileSync(join(project, '.workbench.kdl'), 'agent {\n  deny "shell" "rm -rf*"\n}\n');
    model.reply({toolCalls: [{name: 'run_shell', input: {command: 'echo hi'}}]}, {toolCalls: [{name: 'run_shell', input: {command: 'rm -rf greeting.txt'}}]}, {text: 'ok'});
    const result = await agent(['clean up', '--json']);
    const rows = result.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as {kind: string; error?: string; decision?: {reason: string}});
    const tools = rows.filter((row) => row.kind === 'tool');
    expect(tools[0]?.decision?.reason).toMatch(/--yes/);
    expect(tools[1]?.decision?.reason).toMatch(/\.workbench\.kdl:2/);
    expect(readFileSync(join(project, 'greeting.txt'), 'utf8')).toBe('hello world\n');
  });

  it('--max-turns stops a model that never stops calling tools', async () => {
    model.respond = () => ({toolCalls: [{name: 'read_file', input: {path: 'greeting.txt'}}]});
    const result = await agent(['loop', '--max-turns', '2']);
    expect(result.code).toBe(1);
    expect(model.requests).toHaveLength(2);
    expect(result.stderr).toMatch(/stopped after 2 model requests \(--max-turns 2\)/);
  });

  it.each([
    [['hello', '--api', 'soap'], /--api must be one of auto, messages, chat-completions/],
    [['hello', '--max-turns', 'abc'], /--max-turns must be a whole number/],
    [['hello', '--max-turns', '0'], /--max-turns must be 1 or more/],
    [['hello', '--max-turns', '5000'], /--max-turns must be 1000 or less/],
    [['hello', '--base-url', 'not a url'], /--base-url is not a URL/],
    [['hello', '--base-url', 'ftp://example.test'], /--base-url must be an http or https URL/],
    [['   '], /the prompt is empty/],
    [['hello', '--api-key', 'k', '--oauth-provider', 'gateway'], /--api-key and --oauth-provider both name a credential/],
    [['hello', '--oauth-provider', 'nobody'], /no provider profile "nobody"/],
  ])('refuses %j with one line', async (args, message) => {
    const result = await runCli(['agent', ...args], {env, cwd: project});
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(message);
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(model.requests).toHaveLength(0);
  });

  it('no prompt and no terminal: says how to use it', async () => {
    const result = await runCli(['agent'], {env, cwd: project});
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/no prompt given/);
  });

  it('a token file others can read is refused with the reason', async () => {
    const oauth = join(sandbox.config, 'workbench', 'oauth');
    mkdirSync(oauth, {recursive: true});
    const file = join(oauth, 'gateway.token.json');
    writeFileSync(file, JSON.stringify({accessToken: KEY, expiresAt: null, obtainedAt: new Date().toISOString()}));
    chmodSync(file, 0o644);
    const result = await runCli(['agent', 'hello', '--oauth-provider', 'gateway'], {env, cwd: project});
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/has mode 644; it must be 600/);
  });
});
