import {mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {createPermit} from '../../../source/agent/permissions/permit.js';
import {agentTools, findAgentTool, runToolCall, safeByDefaultOf} from '../../../source/agent/tools/index.js';
import type {AgentTool, PermissionRequest, PermissionRule} from '../../../source/agent/types.js';
import {parseProjectConfig} from '../../../source/project/config.js';
import {createToolContext} from '../../../source/tools/context.js';

let dir: string;
let tools: AgentTool[];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'wb-agent-call-'));
  // Legacy mode: no daemon is started by any tool.
  tools = agentTools(createToolContext({cwd: dir, noDaemon: true}));
});
afterEach(() => rmSync(dir, {recursive: true, force: true}));

const rules = (): PermissionRule[] => parseProjectConfig('agent {\n  allow "shell" "echo *"\n  deny "edit" "*.env"\n}\n').agent!;
const permitAll = createPermit({rules: [], yes: true});

describe('agentTools', () => {
  it('offers the built-ins first, then the workbench tools with JSON Schemas from their zod inputs', () => {
    expect(tools.slice(0, 3).map((tool) => tool.name)).toEqual(['read_file', 'edit_file', 'run_shell']);
    const names = tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['get_errors', 'get_incidents', 'proc', 'detect', 'proxylog']));
    const detect = findAgentTool(tools, 'detect')!;
    expect(detect).toMatchObject({permission: 'workbench', safeByDefault: true, inputSchema: {type: 'object', properties: {path: {type: 'string'}}}});
    expect(findAgentTool(tools, 'proc')!.safeByDefault).toBe(false);
    expect(findAgentTool(tools, 'edit_file')!.inputSchema).toMatchObject({type: 'object', required: ['path', 'old_string', 'new_string']});
    for (const tool of tools) expect(tool.inputSchema).not.toHaveProperty('$schema');
  });

  it('safeByDefaultOf: reads and read-only workbench tools by name', () => {
    const safe = safeByDefaultOf(tools);
    expect(safe('read', 'x')).toBe(true);
    expect(safe('workbench', 'get_errors')).toBe(true);
    // Not read-only (mark_read), but it changes only the inbox's read marks.
    expect(safe('workbench', 'get_incidents {"mark_read":true}')).toBe(true);
    expect(safe('workbench', 'run {"cmd":"ls"}')).toBe(false);
    expect(safe('workbench', 'proc {"action":"stop"}')).toBe(false);
    expect(safe('shell', 'ls')).toBe(false);
  });
});

describe('runToolCall', () => {
  it('a tool that does not exist is an error answer listing the tools', async () => {
    const {result, row} = await runToolCall(tools, {id: 'c1', name: 'delete_everything', input: {}}, {cwd: dir}, permitAll);
    expect(result).toMatchObject({callId: 'c1', isError: true});
    expect(result.content).toContain('There is no tool named "delete_everything". The tools are: read_file, edit_file, run_shell');
    expect(row).toMatchObject({kind: 'tool', callId: 'c1', tool: 'delete_everything', summary: 'delete_everything: no such tool'});
  });

  it('arguments that are not JSON, of the wrong type or missing are error answers', async () => {
    const raw = await runToolCall(tools, {id: 'c2', name: 'read_file', input: '{"path": "a'}, {cwd: dir}, permitAll);
    expect(raw.result.content).toContain('read_file: the arguments were not a JSON object');
    expect(raw.result.content).toContain('"path": string');
    const wrong = await runToolCall(tools, {id: 'c3', name: 'edit_file', input: {path: 'a', old_string: 1, new_string: 'x'}}, {cwd: dir}, permitAll);
    expect(wrong.result).toMatchObject({isError: true, content: expect.stringContaining('old_string:')});
    expect(wrong.row.summary).toBe('edit_file: bad arguments');
    const workbench = await runToolCall(tools, {id: 'c4', name: 'get_errors', input: {limit: 'many'}}, {cwd: dir}, permitAll);
    expect(workbench.result).toMatchObject({isError: true});
    const notJson = await runToolCall(tools, {id: 'c5', name: 'detect', input: 'path=.'}, {cwd: dir}, permitAll);
    expect(notJson.result).toMatchObject({isError: true, content: expect.stringContaining('were not a JSON object')});
  });

  it('a call refused by the rules is not run, and the row names the rule', async () => {
    const permit = createPermit({rules: rules(), yes: true});
    const {result, row} = await runToolCall(tools, {id: 'c6', name: 'edit_file', input: {path: '.env', old_string: '', new_string: 'KEY=1'}}, {cwd: dir}, permit);
    expect(existsSync(join(dir, '.env'))).toBe(false);
    expect(result).toEqual({callId: 'c6', isError: true, content: 'Not run: denied by .workbench.kdl:3 deny "edit" "*.env".'});
    expect(row).toMatchObject({summary: 'edit .env → refused', decision: {action: 'deny', rule: {source: '.workbench.kdl:3'}}});
  });

  it('an allowed call runs and its row carries the decision', async () => {
    const permit = createPermit({rules: rules(), yes: false});
    const {result, row} = await runToolCall(tools, {id: 'c7', name: 'run_shell', input: {command: 'echo hi'}}, {cwd: dir}, permit);
    expect(result).toEqual({callId: 'c7', isError: false, content: 'hi\n\n[exit 0]'});
    expect(row).toMatchObject({
      kind: 'tool',
      callId: 'c7',
      tool: 'run_shell',
      summary: 'shell echo hi → exit 0',
      exitCode: 0,
      decision: {action: 'allow', reason: 'allowed by .workbench.kdl:2 allow "shell" "echo *"'},
    });
  });

  it('the asker sees the diff of an edit before it is applied', async () => {
    writeFileSync(join(dir, 'a.txt'), 'old\n');
    const asked: PermissionRequest[] = [];
    const permit = createPermit({
      rules: [],
      yes: false,
      ask: async (request) => {
        asked.push(request);
        expect(readFileSync(join(dir, 'a.txt'), 'utf8')).toBe('old\n');
        return 'allow';
      },
    });
    const {row} = await runToolCall(tools, {id: 'c8', name: 'edit_file', input: {path: 'a.txt', old_string: 'old', new_string: 'new'}}, {cwd: dir}, permit);
    expect(asked[0]).toMatchObject({tool: 'edit', argument: 'a.txt', preview: expect.stringContaining('-old\n+new')});
    expect(row).toMatchObject({summary: 'edit a.txt (+1 -1)', decision: {reason: 'allowed by you when asked (asks: no rule matches; edit asks by default)'}});
    expect(readFileSync(join(dir, 'a.txt'), 'utf8')).toBe('new\n');
  });

  it('a tool that fails answers with its error; no terminal to ask refuses', async () => {
    const failed = await runToolCall(tools, {id: 'c9', name: 'edit_file', input: {path: 'a.txt', old_string: 'x', new_string: 'y'}}, {cwd: dir}, permitAll);
    expect(failed.result).toMatchObject({isError: true, content: expect.stringContaining('no such file')});
    expect(failed.row).toMatchObject({summary: 'edit_file a.txt → failed', decision: {action: 'allow'}});
    const noTerminal = await runToolCall(tools, {id: 'c10', name: 'run_shell', input: {command: 'ls'}}, {cwd: dir}, createPermit({rules: [], yes: false}));
    expect(noTerminal.result.content).toContain('Not run: refused: asks: no rule matches; shell asks by default, and there is no terminal to ask');
  });

  it('paths are normalised against the workspace before the rules see them: .. cannot walk around a rule', async () => {
    const seen: string[] = [];
    const permit = createPermit({
      rules: [{action: 'allow', tool: 'edit', pattern: 'src/*', source: 'p:1'}],
      yes: false,
      ask: async (request) => (seen.push(request.argument), 'deny'),
    });
    const escape = await runToolCall(tools, {id: 'p1', name: 'edit_file', input: {path: 'src/../.env', old_string: '', new_string: 'x'}}, {cwd: dir}, permit);
    expect(escape.row.decision).toMatchObject({action: 'deny'});
    expect(seen).toEqual(['.env']);
    await runToolCall(tools, {id: 'p2', name: 'read_file', input: {path: join(dir, '..', 'elsewhere.txt')}}, {cwd: dir}, permit);
    expect(seen[1]).toBe(join(dir, '..', 'elsewhere.txt'));
    const inside = await runToolCall(tools, {id: 'p3', name: 'edit_file', input: {path: join(dir, 'src', 'a.ts'), old_string: '', new_string: 'x'}}, {cwd: dir}, permit);
    expect(inside.row).toMatchObject({summary: 'create src/a.ts (1 line)', decision: {action: 'allow', rule: {source: 'p:1'}}});
  });

  it('a permit that throws is a refusal, not a crash', async () => {
    const {result} = await runToolCall(tools, {id: 'c11', name: 'run_shell', input: {command: 'ls'}}, {cwd: dir}, async () => {
      throw new Error('asker went away');
    });
    expect(result).toMatchObject({isError: true, content: 'Not run: the permission check failed (asker went away).'});
  });
});

describe('the workbench tool bridge', () => {
  it('calls detect on a temp project, allowed by default as read-only', async () => {
    writeFileSync(join(dir, 'package.json'), JSON.stringify({name: 'demo', scripts: {dev: 'vite', test: 'vitest'}}));
    const permit = createPermit({rules: [], yes: false, safeByDefault: safeByDefaultOf(tools)});
    const {result, row} = await runToolCall(tools, {id: 'w1', name: 'detect', input: {}}, {cwd: dir}, permit);
    expect(result.isError).toBe(false);
    expect(result.content).toContain('node');
    expect(result.content).toMatch(/dev\s+npm run dev/);
    expect(row).toMatchObject({tool: 'detect', decision: {action: 'allow', reason: 'allowed: no rule matches; read-only workbench tools are allowed by default'}});
    expect(row.summary.startsWith('detect → ')).toBe(true);
  });

  it('calls get_errors in legacy mode (no daemon) and gets the compact text', async () => {
    const permit = createPermit({rules: [], yes: false, safeByDefault: safeByDefaultOf(tools)});
    const {result} = await runToolCall(tools, {id: 'w2', name: 'get_errors', input: {}}, {cwd: dir}, permit);
    expect(result).toMatchObject({isError: false, content: expect.stringContaining('=== Errors (0) ===')});
  });

  it('a tool that needs the daemon answers with the reason in legacy mode', async () => {
    const {result} = await runToolCall(tools, {id: 'w3', name: 'proc', input: {action: 'list'}}, {cwd: dir}, permitAll);
    expect(result.isError).toBe(true);
    expect(result.content).toContain('daemon');
  });

  it('a changing workbench tool asks by default, and a rule over its name allows it', async () => {
    const safe = safeByDefaultOf(tools);
    const asks = await createPermit({rules: [], yes: false, safeByDefault: safe})({
      tool: 'workbench',
      argument: findAgentTool(tools, 'proc')!.argument({action: 'stop', process_id: 'web'}),
    });
    expect(asks.decision.reason).toContain('workbench tools that change something ask by default');
    const rule: PermissionRule = {action: 'allow', tool: 'workbench', pattern: 'proc*', source: 'r:1'};
    expect((await createPermit({rules: [rule], yes: false})({tool: 'workbench', argument: 'proc {"action":"stop","process_id":"web"}'})).allowed).toBe(true);
  });
});
