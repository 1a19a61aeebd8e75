import {mkdirSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {makeSandbox, runCli, type Sandbox} from '../helpers/cli.js';

/** `workbench agent perms test "<tool>" "<argument>"` through the built program: exit 0 allow, 1 deny, 2 ask. */
let sandbox: Sandbox;
let project: string;
beforeEach(() => {
  sandbox = makeSandbox();
  project = join(sandbox.dir, 'project');
  mkdirSync(project);
  writeFileSync(join(project, '.workbench.kdl'), 'agent {\n  allow "shell" "npm test*"\n  ask "edit" "*"\n  deny "shell" "rm -rf*"\n}\n');
});
afterEach(() => sandbox.cleanup());

const perms = (args: string[], cwd = project) => runCli(['agent', 'perms', 'test', ...args], {env: sandbox.env, cwd});

describe('workbench agent perms test', () => {
  it('explains a compound shell command part by part and exits 1 for deny', async () => {
    const result = await perms(['shell', 'npm test && rm -rf x']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(1);
    expect(result.stdout).toBe(
      [
        'shell "npm test && rm -rf x"',
        `rules: ${join(project, '.workbench.kdl')} (3 rules)`,
        '  part 1 "npm test": allow — allowed by .workbench.kdl:2 allow "shell" "npm test*"',
        '  part 2 "rm -rf x": deny — denied by .workbench.kdl:4 deny "shell" "rm -rf*"',
        'result: deny — denied by .workbench.kdl:4 deny "shell" "rm -rf*", for the part "rm -rf x" of 2',
        '',
      ].join('\n'),
    );
  });

  it('exits 0 for allow and 2 for ask; --json carries the decision and its parts', async () => {
    expect((await perms(['shell', 'npm test'])).code).toBe(0);
    const asked = await perms(['edit', 'src/a.ts', '--json']);
    expect(asked.code).toBe(2);
    expect(JSON.parse(asked.stdout)).toMatchObject({tool: 'edit', argument: 'src/a.ts', action: 'ask', rule: {source: '.workbench.kdl:3'}});
    const compound = JSON.parse((await perms(['shell', 'npm test > out.txt', '--json'])).stdout);
    expect(compound).toMatchObject({action: 'ask', parts: [{text: 'npm test > out.txt', decision: {action: 'allow'}}]});
    expect(compound.reason).toContain('redirection >');
  });

  it('uses the defaults without a .workbench.kdl and says so', async () => {
    const empty = join(sandbox.dir, 'empty');
    mkdirSync(empty);
    const read = await perms(['read', 'a.ts'], empty);
    expect(read.code).toBe(0);
    expect(read.stdout).toContain(`rules: no .workbench.kdl in ${empty} (defaults only)`);
    expect(read.stdout).toContain('result: allow — allowed: no rule matches; read is allowed by default');
    const workbench = await perms(['workbench', 'get_errors'], empty);
    expect(workbench.code).toBe(0);
    expect((await perms(['workbench', 'proc {"action":"stop"}'], empty)).code).toBe(2);
  });

  it('refuses an unknown tool, a bad rule and missing arguments with one line', async () => {
    const unknown = await perms(['bash', 'ls']);
    expect(unknown).toMatchObject({code: 1, stdout: '', stderr: 'workbench: unknown tool "bash": expected read, edit, shell or workbench\n'});
    writeFileSync(join(project, '.workbench.kdl'), 'agent {\n  allow "shell"\n}\n');
    const bad = await perms(['shell', 'ls']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('.workbench.kdl:2: agent.allow: expected a tool and a pattern in quotes');
    const missing = await perms(['shell']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('argument');
  });

  it('strips control characters from the argument it prints', async () => {
    const result = await perms(['shell', 'echo \u001b]0;title\u0007 hi']);
    expect(result.stdout).not.toContain('\u001b');
    expect(result.code).toBe(2);
  });
});
