import {spawnSync} from 'node:child_process';
import {mkdirSync, realpathSync, rmSync, symlinkSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {Client} from '@modelcontextprotocol/sdk/client/index.js';
import {StdioClientTransport} from '@modelcontextprotocol/sdk/client/stdio.js';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {cliPath, eventually, makeSandbox, runCli, type Sandbox} from '../helpers/cli.js';

// Processes belong to their project (issue 26): two projects each run `web` and `worker`, and
// ids, output, alerts and --process-id are each project's own.
let sandbox: Sandbox;
let alpha: string;
let beta: string;
const cli = (cwd: string, args: string[]) => runCli(args, {env: sandbox.env, cwd});

interface Listed {
  id: string;
  project: string;
  status: string;
  run: number;
}

async function list(cwd: string, all = false): Promise<Listed[]> {
  const result = await cli(cwd, ['proc', 'list', '--json', ...(all ? ['--all'] : [])]);
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as Listed[];
}

async function errors(cwd: string, processId?: string): Promise<Array<{source: string; message: string}>> {
  const result = await cli(cwd, ['get-errors', '--raw', ...(processId ? ['--process-id', processId] : [])]);
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as Array<{source: string; message: string}>;
}

/** A project folder whose `web` and `worker` scripts each print an error line naming the project, then keep running. */
function makeProject(name: string): string {
  const root = join(sandbox.dir, name);
  mkdirSync(root, {recursive: true});
  const script = (what: string) => `echo "Error: ${what} of ${name} failed"; sleep 60`;
  writeFileSync(join(root, 'package.json'), JSON.stringify({name, scripts: {web: script('web'), worker: script('worker')}}));
  return realpathSync(root);
}

async function startBoth(cwd: string): Promise<void> {
  for (const script of ['web', 'worker']) {
    const started = await cli(cwd, ['run', script]);
    expect(started.code, started.stderr).toBe(0);
    expect(started.stdout).toMatch(new RegExp(`started ${script} \\(pid \\d+\\)`));
  }
}

beforeEach(() => {
  sandbox = makeSandbox('wb-projects-');
  alpha = makeProject('alpha');
  beta = makeProject('beta');
});

afterEach(async () => {
  await sandbox.cleanup();
});

describe('processes belong to their project', () => {
  it('runs web and worker in two projects at once, each with its own ids, output and errors', async () => {
    // Side by side: not "already running", and not "run 2" of alpha's: beta's own first run.
    await Promise.all([startBoth(alpha), startBoth(beta)]);
    // Each project's reads are independent of the other's: both are checked at once.
    const checkProject = async (root: string, other: string) => {
      const mine = await list(root);
      expect(mine.map((info) => [info.id, info.status, info.run, info.project])).toEqual([
        ['web', 'running', 1, root],
        ['worker', 'running', 1, root],
      ]);
      const name = root === alpha ? 'alpha' : 'beta';
      const otherName = other === alpha ? 'alpha' : 'beta';
      const output = await eventually(async () => {
        const result = await cli(root, ['proc', 'output', 'worker']);
        return result.stdout.includes('failed') ? result.stdout : undefined;
      });
      expect(output).toContain(`worker of ${name} failed`);
      expect(output).not.toContain(otherName);

      const workerErrors = await eventually(async () => {
        const found = await errors(root, 'worker');
        return found.length > 0 ? found : undefined;
      });
      expect(workerErrors.map((error) => [error.source, error.message])).toEqual([['process:worker', `worker of ${name} failed`]]);
      const everything = await eventually(async () => {
        const found = await errors(root);
        return found.length === 2 ? found : undefined;
      });
      expect(everything.map((error) => error.message).sort()).toEqual([`web of ${name} failed`, `worker of ${name} failed`]);
    };
    await Promise.all([checkProject(alpha, beta), checkProject(beta, alpha)]);

    // Stopping alpha's web leaves beta's running.
    const stopped = await cli(alpha, ['proc', 'stop', 'web']);
    expect(stopped.code, stopped.stderr).toBe(0);
    expect((await list(beta)).find((info) => info.id === 'web')?.status).toBe('running');
    expect((await list(alpha)).find((info) => info.id === 'web')?.status).toBe('stopped');
  });

  it('lists every project with --all, with a PROJECT column', async () => {
    await Promise.all([startBoth(alpha), startBoth(beta)]);
    const all = await list(alpha, true);
    expect(all.map((info) => `${info.project}#${info.id}`).sort()).toEqual([`${alpha}#web`, `${alpha}#worker`, `${beta}#web`, `${beta}#worker`]);
    const table = await cli(alpha, ['proc', 'list', '--all']);
    expect(table.stdout).toMatch(/^PROJECT\s+ID\s+STATUS/);
    expect(table.stdout).toMatch(new RegExp(`${beta}\\s+worker\\s+running`));
    // Inside a project, the short ids only.
    expect((await cli(alpha, ['proc', 'list'])).stdout).toMatch(/^ID\s+STATUS.*\nweb\s+running.*\nworker\s+running[^\n]*\n$/s);
    // Another project's process, named by its project: what --all shows.
    const output = await eventually(async () => {
      const result = await cli(alpha, ['proc', 'output', `${beta}#web`]);
      return result.stdout.includes('failed') ? result.stdout : undefined;
    });
    expect(output).toContain('web of beta failed');
  });

  it("says in a project without the process that it is not found, never listing another project's", async () => {
    await startBoth(alpha);
    const gamma = makeProject('gamma');
    await eventually(async () => (await errors(alpha, 'worker')).length > 0);
    // Independent reads: asked side by side.
    const [asked, gammaErrors, incidents, gammaList] = await Promise.all([
      cli(gamma, ['get-errors', '--process-id', 'worker']),
      errors(gamma),
      cli(gamma, ['get-incidents', '--json']),
      list(gamma),
    ]);
    expect(asked.code).toBe(1);
    expect(asked.stderr).toMatch(/^workbench: process "worker" not found\n$/);
    expect(gammaErrors).toEqual([]);
    expect(incidents.code, incidents.stderr).toBe(0);
    expect(JSON.parse(incidents.stdout)).toEqual([]);
    expect(gammaList).toEqual([]);
  });

  it('answers the MCP proc tool per project, and across projects with all', async () => {
    await Promise.all([startBoth(alpha), startBoth(beta)]);
    const transport = new StdioClientTransport({command: process.execPath, args: [cliPath, 'mcp'], cwd: beta, env: sandbox.env as Record<string, string>, stderr: 'pipe'});
    const mcp = new Client({name: 'workbench-test', version: '1.0.0'});
    await mcp.connect(transport);
    try {
      type Answer = {content: Array<{text: string}>; structuredContent?: {processes?: Listed[]}};
      const mine = (await mcp.callTool({name: 'proc', arguments: {action: 'list'}})) as Answer;
      expect(mine.structuredContent?.processes?.map((info) => [info.project, info.id])).toEqual([
        [beta, 'web'],
        [beta, 'worker'],
      ]);
      expect(mine.content[0]!.text).toMatch(/^ID\s+STATUS/);
      const every = (await mcp.callTool({name: 'proc', arguments: {action: 'list', all: true}})) as Answer;
      expect(every.structuredContent?.processes?.map((info) => `${info.project}#${info.id}`).sort()).toEqual([`${alpha}#web`, `${alpha}#worker`, `${beta}#web`, `${beta}#worker`]);
      expect(every.content[0]!.text).toMatch(new RegExp(`^PROJECT\\s+ID\\s+STATUS[^]*${alpha}\\s+web\\s+running`));
      // get_errors with a process id answers for the caller's project.
      const found = await eventually(async () => {
        const answer = (await mcp.callTool({name: 'get_errors', arguments: {process_id: 'web', raw: true}})) as {content: Array<{text: string}>};
        return answer.content[0]!.text.includes('failed') ? answer.content[0]!.text : undefined;
      });
      expect(found).toContain('web of beta failed');
      expect(found).not.toContain('alpha');
    } finally {
      await mcp.close();
    }
  });

  it('takes two paths through a symlink as one project', async () => {
    const link = join(sandbox.dir, 'alpha-link');
    symlinkSync(alpha, link);
    await startBoth(alpha);
    const seen = await list(link);
    expect(seen.map((info) => [info.id, info.project])).toEqual([
      ['web', alpha],
      ['worker', alpha],
    ]);
    const again = await cli(link, ['run', 'web']);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/process "web" is already running/);
    // A subfolder is the same project too.
    mkdirSync(join(alpha, 'src'));
    expect((await list(join(link, 'src'))).map((info) => info.id)).toEqual(['web', 'worker']);
  });

  it('keeps a removed project folder’s processes known, with clear messages', async () => {
    await Promise.all([startBoth(alpha), startBoth(beta)]);
    // `run` answers once the process is spawned; npm reads package.json from the folder after that.
    // The folder goes only once each script has printed, so what is tested is a folder removed
    // under running processes, not npm starting in a folder that is gone (it exits 254 then).
    for (const script of ['web', 'worker']) {
      await eventually(async () => ((await cli(alpha, ['proc', 'output', script])).stdout.includes('failed') ? true : undefined));
    }
    rmSync(alpha, {recursive: true, force: true});
    // The other project goes on as before.
    expect((await list(beta)).map((info) => info.id)).toEqual(['web', 'worker']);
    const table = await cli(beta, ['proc', 'list', '--all']);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toContain(`${alpha} (folder gone)`);
    // Its processes can still be stopped, by the id --all shows.
    const stopped = await cli(beta, ['proc', 'stop', `${alpha}#web`]);
    expect(stopped.code, stopped.stderr).toBe(0);
    expect(stopped.stdout).toContain('web: stopped');
    // A restart cannot go back into the folder: one clear line.
    const restarted = await cli(beta, ['proc', 'restart', `${alpha}#web`]);
    expect(restarted.code).toBe(1);
    expect(restarted.stderr).toMatch(/^workbench: .*working directory not found: .*alpha \(removed since web started; stop it instead\)\n$/);
    // A command run in a folder removed under it says so.
    const gone = join(sandbox.dir, 'gone');
    mkdirSync(gone);
    const inside = spawnSync('/bin/sh', ['-c', `cd '${gone}' && rmdir '${gone}' && exec '${process.execPath}' '${cliPath}' proc list`], {
      env: sandbox.env,
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(inside.status).toBe(1);
    expect(inside.stderr).toMatch(/^workbench: the current folder no longer exists .*: cd to a project folder\n$/);
    const unknown = await cli(beta, ['proc', 'output', `${alpha}#nothing`]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^workbench: process "nothing" not found in project .*alpha\n$/);
  });
});
