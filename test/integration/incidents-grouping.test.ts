import {writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {eventually, makeSandbox, runCli, type Sandbox} from '../helpers/cli.js';

// Near-duplicates through the real daemon and the built CLI: processes print the messages users
// saw fill the inbox with 1x rows; `get-incidents --raw` groups them, `get-errors --raw` stays exact.

let sandbox: Sandbox;
const cli = (args: string[]) => runCli(args, {env: sandbox.env, cwd: sandbox.dir});

interface Row {
  source: string;
  category: string;
  message: string;
  location: string;
  count: number;
  variant_count?: number;
  variants?: string[];
  run?: number;
}

async function raw(command: 'get-incidents' | 'get-errors', extra: string[] = []): Promise<Row[]> {
  const result = await cli([command, '--raw', ...extra]);
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as Row[];
}

const SCRIPTS: Record<string, string> = {
  'billing.mjs': `
const sleep = (ms) => new Promise((done) => setTimeout(done, ms));
for (const [n, total] of [[18, '012.50'], [42, '013.75'], [66, '099.10']]) {
  console.error(new Error(\`invoice \${n}: total is "\${total}"\`));
  console.log('next invoice');
  await sleep(50);
}
setInterval(() => {}, 1000);
`,
  'jobs.mjs': `
const sleep = (ms) => new Promise((done) => setTimeout(done, ms));
for (const n of [24, 48, 72]) {
  console.error(new Error('job ' + n + ' failed'));
  console.log('queue continues');
  await sleep(50);
}
setInterval(() => {}, 1000);
`,
  // Real refused connections: a port is taken, freed, then dialled.
  'dial.mjs': `
import net from 'node:net';
const sleep = (ms) => new Promise((done) => setTimeout(done, ms));
for (let attempt = 0; attempt < 3; attempt++) {
  const server = net.createServer().listen(0, '127.0.0.1');
  await new Promise((done) => server.once('listening', done));
  const {port} = server.address();
  await new Promise((done) => server.close(done));
  const error = await new Promise((done) => net.connect(port, '127.0.0.1').once('error', done));
  console.error(error);
  console.log('retrying');
  await sleep(50);
}
setInterval(() => {}, 1000);
`,
};

beforeEach(() => {
  sandbox = makeSandbox('wb-incidents-');
  for (const [name, text] of Object.entries(SCRIPTS)) writeFileSync(join(sandbox.dir, name), text);
});

afterEach(async () => {
  await sandbox.cleanup();
});

describe('get-incidents groups near-duplicates; get-errors stays exact', () => {
  it('invoice 18/42/66, ECONNREFUSED 127.0.0.1:<port> and job 24/48/72 are one incident each, with count and variants', async () => {
    for (const id of ['billing', 'jobs', 'dial']) expect((await cli(['run', '--cmd', `node ${id}.mjs`, '--id', id])).code).toBe(0);
    const errors = await eventually(async () => {
      const list = await raw('get-errors', ['--limit', '100']);
      const of = (id: string) => list.filter((entry) => entry.source === `process:${id}`).length;
      return of('billing') === 3 && of('jobs') === 3 && of('dial') === 3 ? list : undefined;
    });
    // Exact: every message its own entry (spec 1's dedup rule).
    expect(errors.filter((entry) => entry.source === 'process:billing').map((entry) => entry.message)).toEqual([
      'invoice 66: total is "099.10"',
      'invoice 42: total is "013.75"',
      'invoice 18: total is "012.50"',
    ]);
    const ports = new Set(errors.filter((entry) => entry.source === 'process:dial').map((entry) => entry.message));

    const incidents = await raw('get-incidents');
    const billing = incidents.filter((entry) => entry.source === 'process:billing');
    expect(billing).toHaveLength(1);
    expect(billing[0]).toMatchObject({
      category: 'Error',
      message: 'invoice 66: total is "099.10"',
      count: 3,
      variant_count: 3,
      variants: ['invoice 66: total is "099.10"', 'invoice 42: total is "013.75"', 'invoice 18: total is "012.50"'],
    });
    expect(billing[0].location).toMatch(/billing\.mjs:4:\d+$/);
    const jobs = incidents.filter((entry) => entry.source === 'process:jobs');
    expect(jobs).toEqual([expect.objectContaining({message: 'job 72 failed', count: 3, variant_count: 3, variants: ['job 72 failed', 'job 48 failed', 'job 24 failed']})]);
    const dial = incidents.filter((entry) => entry.source === 'process:dial');
    expect(dial).toHaveLength(1);
    expect(dial[0].message).toMatch(/ECONNREFUSED 127\.0\.0\.1:\d+/);
    expect(dial[0].count).toBe(3);
    expect(dial[0].variant_count ?? 1).toBe(ports.size);

    const compact = await cli(['get-incidents']);
    expect(compact.stdout).toMatch(
      /\[error:process_error\] process:jobs Error \(3x, [^)]+\) id [0-9a-f]{8}\njob 72 failed\n(→ .*\n)?variants \(3\): job 72 failed \| job 48 failed \| job 24 failed/,
    );
  });

  it("the compact answers show each incident's id and give their hints as CLI flags, which work as written", async () => {
    for (const id of ['billing', 'jobs']) expect((await cli(['run', '--cmd', `node ${id}.mjs`, '--id', id])).code).toBe(0);
    await eventually(async () => ((await raw('get-incidents')).filter((entry) => entry.count === 3).length === 2 ? true : undefined));

    const first = await cli(['get-incidents', '--limit', '1']);
    expect(first.code, first.stderr).toBe(0);
    const id = /^\[error:process_error\] process:\w+ Error \(3x, [^)]+\) id ([0-9a-f]{8})$/m.exec(first.stdout)?.[1];
    expect(id, first.stdout).toBeDefined();
    expect(first.stdout).toContain('[showing 1 of 2: raise --limit, or add --mark-read and page through with --unread; one whole: workbench get-incidents --id <id>]');
    expect(first.stdout).not.toContain('{"');
    const whole = await cli(['get-incidents', '--id', id!]);
    expect(whole.code, whole.stderr).toBe(0);
    expect(whole.stdout).toContain(`id: ${id}`);

    const marked = await cli(['get-incidents', '--mark-read', '--limit', '1']);
    expect(marked.stdout).toMatch(/marked 1 read; --unread shows only what is new from here/);
    expect((await cli(['get-incidents', '--unread'])).stdout).toMatch(/=== Incidents \(1\) ===/);

    const errors = await cli(['get-errors', '--limit', '1']);
    expect(errors.stdout).toMatch(/\[showing 1 of 6: raise limit \(e\.g\. --limit 6\) or narrow with --process-id or --since\]/);
  });

  it('an incident survives a restart of its process, marked with the run it came from', async () => {
    writeFileSync(join(sandbox.dir, 'crash.mjs'), `console.error(new TypeError('total of invoice 7 is undefined')); setTimeout(() => process.kill(process.pid, 'SIGKILL'), 100);`);
    await cli(['run', '--cmd', 'exec node crash.mjs', '--id', 'crashy']);
    await eventually(async () => ((await raw('get-incidents')).some((entry) => entry.category === 'crashed') ? true : undefined));

    // Started again under the same id, this time it keeps running.
    writeFileSync(join(sandbox.dir, 'crash.mjs'), `console.log('fine now'); setInterval(() => {}, 1000);`);
    expect((await cli(['run', '--cmd', 'exec node crash.mjs', '--id', 'crashy'])).code).toBe(0);
    const list = JSON.parse((await cli(['proc', 'list', '--json'])).stdout) as Array<{id: string; run: number; status: string}>;
    expect(list.find((entry) => entry.id === 'crashy')).toMatchObject({run: 2, status: 'running'});
    const incidents = (await raw('get-incidents')).filter((entry) => entry.source === 'process:crashy');
    // Which of the two the scanner filed last depends on when the stack block closed: compare as a set.
    expect(incidents.map((entry) => [entry.category, entry.run]).sort()).toEqual([
      ['TypeError', 1],
      ['crashed', 1],
    ]);
    expect((await cli(['get-incidents'])).stdout).toMatch(/process:crashy crashed \(1x, [^)]+\) run 1/);

    // Restarted: still there, still run 1; the process is on run 3.
    expect((await cli(['proc', 'restart', 'crashy'])).code).toBe(0);
    const after = (await raw('get-incidents')).filter((entry) => entry.source === 'process:crashy');
    expect(after.map((entry) => entry.run)).toEqual([1, 1]);
  });
});
