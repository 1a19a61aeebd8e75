import {spawn} from 'node:child_process';
import {createRequire} from 'node:module';
import {dirname, join} from 'node:path';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {cliPath, makeSandbox, type Sandbox} from '../helpers/cli.js';

/** A published MCP client nobody here wrote: the MCP Inspector's CLI mode (0.15, the last on Node 20). */
const inspector = join(dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/inspector/package.json')), 'cli/build/cli.js');

let sandbox: Sandbox;
beforeEach(() => (sandbox = makeSandbox()));
afterEach(() => sandbox.cleanup());

function inspect(args: string[]): Promise<{code: number | null; stdout: string; stderr: string}> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [inspector, '--cli', process.execPath, cliPath, 'mcp', '--no-daemon', ...args], {env: sandbox.env, cwd: sandbox.dir});
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => (child.kill('SIGKILL'), reject(new Error(`inspector hung\n${stdout}\n${stderr}`))), 30_000);
    child.on('close', (code) => (clearTimeout(timer), resolve({code, stdout, stderr})));
  });
}

describe('workbench mcp through the MCP Inspector CLI', () => {
  it('lists the tools with titles, annotations and schemas', async () => {
    const result = await inspect(['--method', 'tools/list']);
    expect(result.code, result.stderr).toBe(0);
    const {tools} = JSON.parse(result.stdout);
    expect(tools.map((tool: {name: string}) => tool.name).sort()).toEqual(['currentpage', 'detect', 'get_errors', 'get_incidents', 'proc', 'proxy', 'proxylog', 'run']);
    const getErrors = tools.find((tool: {name: string}) => tool.name === 'get_errors');
    expect(getErrors).toMatchObject({title: expect.any(String), annotations: {readOnlyHint: true}, outputSchema: {type: 'object'}});
  });

  it('calls a tool: structured content beside the text, and a refused argument as the one tool-error shape', async () => {
    const ok = await inspect(['--method', 'tools/call', '--tool-name', 'get_errors', '--tool-arg', 'limit=5']);
    expect(ok.code, ok.stderr).toBe(0);
    const answer = JSON.parse(ok.stdout);
    expect(answer.content[0].text).toMatch(/=== Errors \(0\) ===/);
    expect(answer.structuredContent).toEqual({errors: [], total: 0, shown: 0});
    const refused = await inspect(['--method', 'tools/call', '--tool-name', 'get_errors', '--tool-arg', 'limit=0']);
    const error = JSON.parse(refused.stdout);
    expect(error.isError).toBe(true);
    expect(JSON.parse(error.content[0].text)).toEqual({error: 'limit must be 1 or more, not 0.'});
  });
});
