import {mkdirSync, writeFileSync} from 'node:fs';
import {connect} from 'node:net';
import {join} from 'node:path';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {makeSandbox, runCli, type Sandbox} from '../helpers/cli.js';

let sandbox: Sandbox;
const cli = (args: string[], cwd?: string) => runCli(args, {env: sandbox.env, cwd});
const noStack = (text: string) => expect(text).not.toMatch(/\n\s+at .+:\d+:\d+/);

beforeEach(() => {
  sandbox = makeSandbox();
});

afterEach(async () => {
  await sandbox.cleanup();
});

/** Sends raw lines to the daemon socket and collects one answer per line. */
function rawExchange(socketPath: string, lines: string[]): Promise<unknown[]> {
  return new Promise((resolve, reject) => {
    const socket = connect(socketPath);
    let buffer = '';
    const answers: unknown[] = [];
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      let newline;
      while ((newline = buffer.indexOf('\n')) >= 0) {
        answers.push(JSON.parse(buffer.slice(0, newline)));
        buffer = buffer.slice(newline + 1);
        if (answers.length === lines.length) {
          socket.end();
          resolve(answers);
        }
      }
    });
    socket.on('error', reject);
    socket.write(lines.map((line) => line + '\n').join(''));
  });
}

describe('bad input gets one clear line, never a stack', () => {
  it('detect: a missing path and a malformed .workbench.kdl', async () => {
    const missing = await cli(['detect', join(sandbox.dir, 'nowhere')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^workbench: no such folder: .*nowhere\n$/);
    noStack(missing.stderr);

    const project = join(sandbox.dir, 'broken');
    mkdirSync(project);
    writeFileSync(join(project, '.workbench.kdl'), 'scripts {\n  dev {\n    rn "npm run dev"\n  }\n}\n');
    const broken = await cli(['detect'], project);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toContain('.workbench.kdl:3');
    expect(broken.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('run: a malformed config starts nothing', async () => {
    const project = join(sandbox.dir, 'half');
    mkdirSync(project);
    writeFileSync(join(project, '.workbench.kdl'), 'scripts {\n  ok {\n    run "sleep 30"\n  }\n  bad {\n    autostart "yes"\n  }\n}\n');
    const result = await cli(['run', 'ok'], project);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('.workbench.kdl:');
    const list = await cli(['proc', 'list', '--json']);
    expect(JSON.parse(list.stdout)).toEqual([]);
  });

  it('flags: garbage numbers, unknown commands, the TUI without a terminal', async () => {
    const tail = await cli(['proc', 'output', 'x', '--tail', 'many']);
    expect(tail.code).toBe(1);
    expect(tail.stderr).toContain('--tail must be a whole number');

    const unknown = await cli(['frobnicate']);
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toMatch(/unknown command/);

    const tui = await cli([]);
    expect(tui.code).toBe(1);
    expect(tui.stderr).toContain('the TUI needs a terminal');
    noStack(tui.stderr);

    const incidents = await cli(['get-incidents', '--raw', '--bogus']);
    expect(incidents.code).not.toBe(0);
    expect(incidents.stderr).toMatch(/unknown option/);
  });

  it('the daemon socket answers garbage with errors and keeps serving', async () => {
    await cli(['daemon', 'start']);
    const socketPath = JSON.parse((await cli(['daemon', 'status', '--json'])).stdout).socket as string;
    const answers = await rawExchange(socketPath, [
      'this is not json',
      '{"id": 1, "method": "no.such.method"}',
      '{"id": 2, "method": "proc.start", "params": {"cmd": 5}}',
      '{"id": 3, "method": "proc.output", "params": {"id": "x", "tail": -1}}',
      '{"id": 4, "method": "errors.query", "params": {"limit": "ten"}}',
      '{"id": 5}',
      '{"id": 6, "method": "ping"}',
    ]);
    expect(answers[0]).toMatchObject({error: {code: 'invalid_argument'}});
    expect(answers[1]).toMatchObject({id: 1, error: {code: 'not_found', message: 'unknown method "no.such.method"'}});
    expect(answers[2]).toMatchObject({id: 2, error: {code: 'invalid_argument'}});
    expect(answers[3]).toMatchObject({id: 3, error: {code: 'invalid_argument'}});
    expect(answers[4]).toMatchObject({id: 4, error: {code: 'invalid_argument'}});
    expect(answers[5]).toMatchObject({id: 5, error: {code: 'invalid_argument'}});
    expect(answers[6]).toMatchObject({id: 6, result: {version: 1}});
  });
});
