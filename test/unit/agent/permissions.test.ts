import {describe, expect, it} from 'vitest';
import {decide} from '../../../source/agent/permissions/decide.js';
import {globMatches} from '../../../source/agent/permissions/glob.js';
import {createPermit} from '../../../source/agent/permissions/permit.js';
import {splitShellCommand} from '../../../source/agent/permissions/shell-parts.js';
import type {PermissionRequest, PermissionRule} from '../../../source/agent/types.js';
import {isWorkbenchError} from '../../../source/core/errors.js';
import {parseProjectConfig} from '../../../source/project/config.js';

const CONFIG = `agent {
  allow "shell" "npm test*"
  ask "edit" "*"
  deny "shell" "rm -rf*"
  allow "shell" "git status"
  allow "shell" "npm ci && npm test"
}
`;
const rules = (): PermissionRule[] => parseProjectConfig(CONFIG).agent!;

describe('the agent block of .workbench.kdl', () => {
  it('reads each rule with its line as the source', () => {
    expect(rules().slice(0, 3)).toEqual([
      {action: 'allow', tool: 'shell', pattern: 'npm test*', source: '.workbench.kdl:2'},
      {action: 'ask', tool: 'edit', pattern: '*', source: '.workbench.kdl:3'},
      {action: 'deny', tool: 'shell', pattern: 'rm -rf*', source: '.workbench.kdl:4'},
    ]);
  });

  it('takes the one-line form with semicolons, and several blocks in order', () => {
    const config = parseProjectConfig('agent { allow "shell" "npm test*"; deny "*" "*secret*" }\nagent { allow "read" "*" }\n');
    expect(config.agent!.map((rule) => `${rule.action} ${rule.tool} ${rule.pattern} ${rule.source}`)).toEqual([
      'allow shell npm test* .workbench.kdl:1',
      'deny * *secret* .workbench.kdl:1',
      'allow read * .workbench.kdl:2',
    ]);
  });

  it('has no agent rules when there is no block', () => {
    expect(parseProjectConfig('scripts { web { run "npm start" } }').agent).toBeUndefined();
  });

  const bad: Array<[string, string]> = [
    ['agent {\n  permit "shell" "x"\n}', '.workbench.kdl:2: agent: unknown rule "permit" (expected allow, ask or deny'],
    ['agent {\n  allow "bash" "x"\n}', '.workbench.kdl:2: agent.allow: unknown tool "bash" (expected read, edit, shell, workbench or *)'],
    ['agent {\n\n  deny "shell"\n}', '.workbench.kdl:3: agent.deny: expected a tool and a pattern in quotes'],
    ['agent {\n  ask "shell" "a" "b"\n}', '.workbench.kdl:2: agent.ask: expected a tool and a pattern in quotes, e.g. ask "shell" "npm test*", got 3 values'],
    ['agent {\n  allow "shell" 12\n}', '.workbench.kdl:2: agent.allow: the pattern must be a string in quotes, got 12'],
    ['agent {\n  allow "shell" ""\n}', '.workbench.kdl:2: agent.allow: the pattern must not be empty'],
    ['agent {\n  allow "shell" "x" when="now"\n}', '.workbench.kdl:2: agent.allow: takes two values in quotes'],
    ['agent "x" {\n}', '.workbench.kdl:1: agent takes no values'],
    ['agent {\n  allow "shell" "x" { deny "y" "z" }\n}', '.workbench.kdl:2: agent.allow: takes two values in quotes'],
  ];
  it.each(bad)('refuses %j with its line', (text, message) => {
    let caught: unknown;
    try {
      parseProjectConfig(text);
    } catch (error) {
      caught = error;
    }
    expect(isWorkbenchError(caught) && caught.code).toBe('config_invalid');
    expect((caught as Error).message).toContain(message);
  });
});

describe('glob patterns', () => {
  it('* is any run (slashes and spaces too), ? one character, and the whole argument must match', () => {
    expect(globMatches('npm test*', 'npm test -- --grep a/b')).toBe(true);
    expect(globMatches('npm test*', 'xnpm test')).toBe(false);
    expect(globMatches('src/*', 'src/a/b.ts')).toBe(true);
    expect(globMatches('a?c', 'abc')).toBe(true);
    expect(globMatches('a?c', 'ac')).toBe(false);
    expect(globMatches('a.c', 'abc')).toBe(false);
    expect(globMatches('(x)+[y]', '(x)+[y]')).toBe(true);
  });
});

describe('decide', () => {
  it('allows by a rule and names it', () => {
    const decision = decide(rules(), 'shell', 'npm test -- --watch=false');
    expect(decision).toMatchObject({action: 'allow', reason: 'allowed by .workbench.kdl:2 allow "shell" "npm test*"'});
    expect(decision.rule?.source).toBe('.workbench.kdl:2');
  });

  it('denies by a rule and names it', () => {
    expect(decide(rules(), 'shell', 'rm -rf build').reason).toBe('denied by .workbench.kdl:4 deny "shell" "rm -rf*"');
  });

  it('precedence: deny beats ask beats allow among matching rules, wherever they are in the file', () => {
    const list: PermissionRule[] = [
      {action: 'allow', tool: '*', pattern: '*', source: 'a:1'},
      {action: 'ask', tool: 'edit', pattern: 'src/*', source: 'a:2'},
      {action: 'deny', tool: 'edit', pattern: 'src/secret*', source: 'a:3'},
      {action: 'allow', tool: 'edit', pattern: 'src/secret.txt', source: 'a:4'},
    ];
    expect(decide(list, 'edit', 'README.md')).toMatchObject({action: 'allow', rule: {source: 'a:1'}});
    expect(decide(list, 'edit', 'src/app.ts')).toMatchObject({action: 'ask', rule: {source: 'a:2'}, reason: 'asks as told by a:2 ask "edit" "src/*"'});
    // A later, narrower allow does not undo the deny.
    expect(decide(list, 'edit', 'src/secret.txt')).toMatchObject({action: 'deny', rule: {source: 'a:3'}});
  });

  it('defaults with no matching rule: read and read-only workbench tools allow, edit and shell ask', () => {
    expect(decide([], 'read', 'src/a.ts')).toEqual({action: 'allow', rule: null, reason: 'allowed: no rule matches; read is allowed by default'});
    expect(decide([], 'read', '/etc/passwd')).toEqual({action: 'ask', rule: null, reason: 'asks: no rule matches; reads outside the workspace ask by default'});
    expect(decide([], 'read', '../other/a.ts').action).toBe('ask');
    expect(decide([], 'edit', 'src/a.ts')).toEqual({action: 'ask', rule: null, reason: 'asks: no rule matches; edit asks by default'});
    expect(decide([], 'shell', 'ls')).toMatchObject({action: 'ask', reason: 'asks: no rule matches; shell asks by default'});
    expect(decide([], 'workbench', 'get_errors', {safeByDefault: true})).toMatchObject({action: 'allow'});
    expect(decide([], 'workbench', 'proc {"action":"stop"}')).toMatchObject({action: 'ask', reason: 'asks: no rule matches; workbench tools that change something ask by default'});
  });

  it('a rule for another tool does not apply; * applies to every tool', () => {
    expect(decide(rules(), 'edit', 'npm test')).toMatchObject({action: 'ask', rule: {source: '.workbench.kdl:3'}});
    expect(decide([{action: 'deny', tool: '*', pattern: '*.env', source: 's:1'}], 'read', '.env')).toMatchObject({action: 'deny'});
  });
});

describe('compound shell commands', () => {
  it('npm test && rm -rf / does not pass an allow for npm test*: each part alone, the strictest decides', () => {
    const decision = decide(rules(), 'shell', 'npm test && rm -rf /');
    expect(decision.action).toBe('deny');
    expect(decision.parts!.map((part) => [part.text, part.decision.action])).toEqual([
      ['npm test', 'allow'],
      ['rm -rf /', 'deny'],
    ]);
    expect(decision.reason).toBe('denied by .workbench.kdl:4 deny "shell" "rm -rf*", for the part "rm -rf /" of 2');
  });

  it('a part with no rule makes the whole ask', () => {
    const decision = decide(rules(), 'shell', 'npm test | tee out.txt');
    expect(decision.action).toBe('ask');
    expect(decision.parts!.map((part) => part.decision.action)).toEqual(['allow', 'ask']);
    expect(decision.reason).toBe('asks: no rule matches; shell asks by default, for the part "tee out.txt" of 2');
  });

  it('every operator separates: ; || | & |&', () => {
    expect(splitShellCommand('a; b || c | d & e |& f').parts).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
    expect(decide(rules(), 'shell', 'git status; npm test').action).toBe('allow');
    expect(decide(rules(), 'shell', 'git status & rm -rf ~').action).toBe('deny');
  });

  it('quotes are read as the shell reads them: an operator inside quotes is no separator', () => {
    expect(splitShellCommand(`npm test -- --grep 'a && b'`).parts).toEqual([`npm test -- --grep 'a && b'`]);
    expect(decide(rules(), 'shell', `npm test -- --grep "a && rm -rf x"`).action).toBe('allow');
  });

  it('command substitution asks even when every part is allowed, and says why', () => {
    const decision = decide(rules(), 'shell', 'npm test $(git status)');
    expect(decision.action).toBe('ask');
    expect(decision.reason).toContain('command substitution $(...)');
    // The command inside is a part of its own, so a denied one is found.
    expect(decide(rules(), 'shell', 'npm test $(rm -rf /)').action).toBe('deny');
    expect(decide(rules(), 'shell', 'npm test `git status`')).toMatchObject({action: 'ask', reason: expect.stringContaining('command substitution `...`')});
    // Inside double quotes the shell still runs it.
    expect(decide(rules(), 'shell', 'npm test "$(curl x | sh)"').action).toBe('ask');
  });

  it('redirections and subshells ask at least', () => {
    expect(decide(rules(), 'shell', 'npm test > out.txt')).toMatchObject({action: 'ask', reason: expect.stringContaining('redirection >')});
    expect(decide(rules(), 'shell', 'npm test 2>&1')).toMatchObject({action: 'ask', reason: expect.stringContaining('redirection >&')});
    expect(decide(rules(), 'shell', '(npm test)')).toMatchObject({action: 'ask', reason: expect.stringContaining('subshell')});
    expect(decide(rules(), 'shell', 'npm test < /dev/null').action).toBe('ask');
  });

  it('an allow rule that spells out the whole line allows it; a deny or an ask rule still wins', () => {
    expect(decide(rules(), 'shell', 'npm ci && npm test')).toMatchObject({action: 'allow', reason: expect.stringContaining('.workbench.kdl:6')});
    const withRedirect: PermissionRule[] = [{action: 'allow', tool: 'shell', pattern: 'npm run build > build.log', source: 'r:1'}];
    expect(decide(withRedirect, 'shell', 'npm run build > build.log').action).toBe('allow');
    expect(decide([...withRedirect, {action: 'deny', tool: 'shell', pattern: 'npm run*', source: 'r:2'}], 'shell', 'npm run build > build.log').action).toBe('deny');
    expect(decide([...withRedirect, {action: 'ask', tool: 'shell', pattern: '*', source: 'r:3'}], 'shell', 'npm run build > build.log').action).toBe('ask');
    // A wildcard allow without operators never carries a compound line.
    expect(decide([{action: 'allow', tool: 'shell', pattern: '*', source: 'w:1'}], 'shell', 'ls > x').action).toBe('ask');
  });

  it('bash -c and eval ask: the command line they run is a word the rules cannot see into', () => {
    expect(decide([{action: 'allow', tool: 'shell', pattern: '*', source: 'w:1'}], 'shell', "bash -c 'rm -rf x'")).toMatchObject({
      action: 'ask',
      reason: expect.stringContaining('a nested command line (bash -c)'),
    });
    expect(decide([{action: 'allow', tool: 'shell', pattern: '*', source: 'w:1'}], 'shell', 'eval "$X"').reason).toContain('(eval)');
    expect(decide([{action: 'allow', tool: 'shell', pattern: '*', source: 'w:1'}], 'shell', '/bin/sh -c ls').action).toBe('ask');
    // With no rule, the default asks and the reason still names the construct.
    expect(decide([], 'shell', "bash -c 'ls'").reason).toBe('asks: no rule matches; shell asks by default; the line also has a nested command line (bash -c)');
  });

  it('a command is also read without its leading variable assignments', () => {
    expect(decide(rules(), 'shell', 'FOO=1 rm -rf /')).toMatchObject({action: 'deny', rule: {source: '.workbench.kdl:4'}});
    expect(decide(rules(), 'shell', 'CI=1 NODE_ENV=test npm test')).toMatchObject({action: 'allow', rule: {source: '.workbench.kdl:2'}});
    expect(decide(rules(), 'shell', 'npm test && A=b rm -rf x').action).toBe('deny');
    // A rule written with the assignment still matches as written.
    expect(decide([{action: 'allow', tool: 'shell', pattern: 'NODE_ENV=test node x', source: 'e:1'}], 'shell', 'NODE_ENV=test node x').action).toBe('allow');
    // Extra spaces and quotes are read as the shell reads them.
    expect(decide(rules(), 'shell', "npm   'test'").action).toBe('allow');
  });

  it('comments are not run; variables stay as written', () => {
    expect(splitShellCommand('npm test # && rm -rf /').parts).toEqual(['npm test']);
    expect(splitShellCommand('echo $HOME').parts).toEqual(['echo $HOME']);
  });
});

describe('createPermit', () => {
  const asked: PermissionRequest[] = [];
  const asker = (answer: 'allow' | 'always' | 'deny') => async (request: PermissionRequest) => {
    asked.push(request);
    return answer;
  };

  it('deny refuses with the rule, allow runs, without asking', async () => {
    const permit = createPermit({rules: rules(), yes: true, ask: asker('allow')});
    asked.length = 0;
    expect(await permit({tool: 'shell', argument: 'rm -rf x'})).toMatchObject({allowed: false, decision: {action: 'deny', rule: {source: '.workbench.kdl:4'}}});
    expect(await permit({tool: 'shell', argument: 'npm test'})).toMatchObject({allowed: true, decision: {action: 'allow', rule: {source: '.workbench.kdl:2'}}});
    expect(asked).toEqual([]);
  });

  it('--yes turns ask into allow and says so', async () => {
    const permit = createPermit({rules: rules(), yes: true});
    const answer = await permit({tool: 'edit', argument: 'src/a.ts'});
    expect(answer.allowed).toBe(true);
    expect(answer.decision.reason).toBe('allowed by --yes (asks as told by .workbench.kdl:3 ask "edit" "*")');
    expect(answer.decision.rule?.source).toBe('--yes');
  });

  it('without an asker (no terminal) an ask is refused with how to allow it', async () => {
    const answer = await createPermit({rules: [], yes: false})({tool: 'shell', argument: 'make'});
    expect(answer.allowed).toBe(false);
    expect(answer.decision.reason).toContain('--yes');
    expect(answer.decision.reason).toContain('agent { allow "shell" "make" }');
  });

  it('the asker sees the decision and the preview; deny and allow answer once', async () => {
    asked.length = 0;
    const denied = await createPermit({rules: [], yes: false, ask: asker('deny')})({tool: 'edit', argument: 'a.ts', preview: '--- a.ts'});
    expect(denied).toMatchObject({allowed: false, decision: {action: 'deny', rule: {source: 'asked'}}});
    expect(asked[0]).toMatchObject({tool: 'edit', argument: 'a.ts', preview: '--- a.ts', decision: {action: 'ask'}});
    const permit = createPermit({rules: [], yes: false, ask: asker('allow')});
    expect((await permit({tool: 'shell', argument: 'make'})).allowed).toBe(true);
    expect((await permit({tool: 'shell', argument: 'make'})).allowed).toBe(true);
    expect(asked).toHaveLength(3);
  });

  it('always adds a session rule for that exact tool and argument', async () => {
    asked.length = 0;
    const permit = createPermit({rules: rules(), yes: false, ask: asker('always')});
    expect((await permit({tool: 'shell', argument: 'make build'})).decision.rule).toEqual({action: 'allow', tool: 'shell', pattern: 'make build', source: 'session'});
    const again = await permit({tool: 'shell', argument: 'make build'});
    expect(again).toMatchObject({allowed: true, decision: {reason: 'allowed by session allow "shell" "make build"'}});
    expect(asked).toHaveLength(1);
    await permit({tool: 'shell', argument: 'make test'});
    await permit({tool: 'edit', argument: 'make build'});
    expect(asked).toHaveLength(3);
  });

  it('safeByDefault decides the default for workbench tools', async () => {
    const permit = createPermit({rules: [], yes: false, safeByDefault: (tool, argument) => tool === 'workbench' && argument === 'get_errors'});
    expect((await permit({tool: 'workbench', argument: 'get_errors'})).allowed).toBe(true);
    expect((await permit({tool: 'workbench', argument: 'proc {"action":"stop"}'})).allowed).toBe(false);
  });
});
