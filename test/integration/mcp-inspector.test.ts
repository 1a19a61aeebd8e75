import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {cliPath, makeSandbox, type Sandbox} from '../helpers/cli.js';
import {inspect} from '../helpers/inspector.js';

let sandbox: Sandbox;
beforeEach(() => (sandbox = makeSandbox()));
afterEach(() => sandbox.cleanup());

/** `workbench mcp --no-daemon` on stdio, under the Inspector. */
const inspectStdio = (args: string[]) => inspect([process.execPath, cliPath, 'mcp', '--no-daemon', ...args], {env: sandbox.env, cwd: sandbox.dir});

describe('workbench mcp through the MCP Inspector CLI', () => {
  it('lists the tools with titles, annotations and schemas', async () => {
    const result = await inspectStdio(['--method', 'tools/list']);
    expect(result.code, result.stderr).toBe(0);
    const {tools} = JSON.parse(result.stdout);
    expect(tools.map((tool: {name: string}) => tool.name).sort()).toEqual(['currentpage', 'detect', 'get_errors', 'get_incidents', 'proc', 'proxy', 'proxylog', 'run', 'snapshot']);
    const getErrors = tools.find((tool: {name: string}) => tool.name === 'get_errors');
    expect(getErrors).toMatchObject({title: expect.any(String), annotations: {readOnlyHint: true}, outputSchema: {type: 'object'}});
  });

  it('calls a tool: structured content beside the text, and a refused argument as the one tool-error shape', async () => {
    const ok = await inspectStdio(['--method', 'tools/call', '--tool-name', 'get_errors', '--tool-arg', 'limit=5']);
    expect(ok.code, ok.stderr).toBe(0);
    const answer = JSON.parse(ok.stdout);
    expect(answer.content[0].text).toMatch(/=== Errors \(0\) ===/);
    expect(answer.structuredContent).toEqual({errors: [], total: 0, shown: 0});
    const refused = await inspectStdio(['--method', 'tools/call', '--tool-name', 'get_errors', '--tool-arg', 'limit=0']);
    const error = JSON.parse(refused.stdout);
    expect(error.isError).toBe(true);
    expect(JSON.parse(error.content[0].text)).toEqual({error: 'limit must be 1 or more, not 0.'});
  });
});
