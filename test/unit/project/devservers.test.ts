import {spawn, type ChildProcess} from 'node:child_process';
import {fileURLToPath} from 'node:url';
import {afterEach, describe, expect, it} from 'vitest';
import {requirePackage, SYSTEM_PYTHON} from '../../helpers/system-package.js';

const devservers = fileURLToPath(new URL('../../../fixtures/devservers/', import.meta.url));
const demo = fileURLToPath(new URL('../../../fixtures/demo/', import.meta.url));
const hasPython = !requirePackage('python3', {for: 'the python-server.py test'});

interface Running {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

const started: ChildProcess[] = [];
afterEach(() => {
  for (const child of started.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

function start(command: string, args: string[], env: Record<string, string> = {}, cwd?: string): Running {
  const child = spawn(command, args, {cwd, env: {...process.env, ...env}, stdio: ['ignore', 'pipe', 'pipe']});
  started.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk) => (stdout += chunk));
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return {child, stdout: () => stdout, stderr: () => stderr, exited};
}

/** Resolves once `read()` matches: the output is the only clock these tests use. */
function waitFor(read: () => string, pattern: RegExp, child: ChildProcess): Promise<RegExpMatchArray> {
  return new Promise((resolve, reject) => {
    const check = (): void => {
      const match = read().match(pattern);
      if (match) {
        clearInterval(timer);
        resolve(match);
      } else if (child.exitCode !== null) {
        clearInterval(timer);
        reject(new Error(`process exited before printing ${pattern}`));
      }
    };
    const timer = setInterval(check, 20);
    check();
  });
}

describe('fixtures/devservers/node-server.mjs', () => {
  it('logs a caught stack on /error and crashes with the real stack on /boom', async () => {
    const server = start(process.execPath, [`${devservers}node-server.mjs`, '0']);
    const [, port] = await waitFor(server.stdout, /listening on http:\/\/127\.0\.0\.1:(\d+)/, server.child);

    const error = await fetch(`http://127.0.0.1:${port}/error`);
    expect(error.status).toBe(500);
    expect(await error.json()).toEqual({error: "Cannot read properties of undefined (reading 'name')"});
    await waitFor(server.stdout, /GET \/error 500/, server.child);

    await expect(fetch(`http://127.0.0.1:${port}/boom`)).rejects.toThrow();
    expect(await server.exited).toBe(1);
    // Node's crash report starts with `file:///…/node-server.mjs:<line>` and the source line.
    const crash = server.stderr().slice(server.stderr().search(/^file:\/\/.*node-server\.mjs:\d+$/m));
    expect(crash).toMatch(/^file:/);
    expect(crash).toMatch(/^TypeError: Cannot read properties of undefined \(reading 'name'\)$/m);
    expect(crash).toMatch(/^ {4}at profileTitle \(file:\/\/.*node-server\.mjs:\d+:\d+\)$/m);
    expect(server.stdout()).toContain('GET /boom ...');
  });
});

describe.skipIf(!hasPython)('fixtures/devservers/python-server.py', () => {
  it('prints a real traceback to stderr when /boom raises, and keeps serving', async () => {
    const server = start(SYSTEM_PYTHON, [`${devservers}python-server.py`], {PORT: '0', PYTHONDONTWRITEBYTECODE: '1'});
    const [, port] = await waitFor(server.stdout, /listening on http:\/\/127\.0\.0\.1:(\d+)/, server.child);

    await expect(fetch(`http://127.0.0.1:${port}/boom`)).rejects.toThrow();
    await waitFor(server.stderr, /KeyError: 'banana'/, server.child);
    expect(server.stderr()).toContain('Traceback (most recent call last):');
    expect(server.stderr()).toMatch(/File ".*python-server\.py", line \d+, in order_total/);

    const ok = await fetch(`http://127.0.0.1:${port}/`);
    expect(await ok.json()).toEqual({total: 7});
    await waitFor(server.stderr, /"GET \/ HTTP\/1\.1" 200/, server.child);
  });
});

describe('fixtures/devservers/go-output.mjs', () => {
  it('prints a Go build error, then a panic with runtime and app frames, then exit status 2', async () => {
    const run = start(process.execPath, [`${devservers}go-output.mjs`, '--delay', '0']);
    expect(await run.exited).toBe(1);
    const lines = run.stderr().split('\n');
    expect(lines).toContain('./main.go:12:5: undefined: foo');
    const panic = lines.indexOf('panic: runtime error: index out of range [5] with length 3');
    expect(panic).toBeGreaterThan(lines.indexOf('./main.go:12:5: undefined: foo'));
    expect(lines[panic + 2]).toBe('goroutine 1 [running]:');
    expect(lines.slice(panic)).toContain('\t/usr/local/go/src/runtime/panic.go:115 +0x74');
    expect(lines.slice(panic)).toContain('\t/home/dev/app/main.go:42 +0x1d');
    expect(lines.filter(Boolean).at(-1)).toBe('exit status 2');
  });

  it('prints only the build phase with --only build', async () => {
    const run = start(process.execPath, [`${devservers}go-output.mjs`, '--only', 'build']);
    await run.exited;
    expect(run.stderr()).toBe('# example.com/app\n./main.go:12:5: undefined: foo\n./handlers.go:27:2: declared and not used: count\n');
  });
});

describe('fixtures/demo', () => {
  it('web server serves its page and API and errs without dying', async () => {
    const web = start(process.execPath, ['server.mjs'], {PORT: '0', DEMO_TICK_MS: '40'}, demo);
    const [, port] = await waitFor(web.stdout, /Local: +http:\/\/127\.0\.0\.1:(\d+)\//, web.child);
    expect(await (await fetch(`http://127.0.0.1:${port}/`)).text()).toContain('<h1>Demo shop</h1>');
    expect(await (await fetch(`http://127.0.0.1:${port}/api/products/1`)).json()).toEqual({id: 1, name: 'Espresso cup', price: 9.5});

    // Every failure in the rotation: a stack, a JSON 500, a missing module, a compile error that heals.
    await waitFor(web.stderr, /^TypeError: Cannot read properties of undefined \(reading 'percent'\)\n {4}at cartTotal/m, web.child);
    await waitFor(web.stdout, /POST \/api\/checkout 500/, web.child);
    await waitFor(web.stderr, /Cannot find module '.*price-chart\.mjs'/, web.child);
    await waitFor(web.stderr, /src\/cart\.ts\(14,7\): error TS2322/, web.child);
    await waitFor(web.stdout, /compiled successfully[\s\S]*compiled successfully/, web.child);
    expect(web.child.exitCode).toBeNull();
    web.child.kill('SIGTERM');
    expect(await web.exited).toBe(0);
  });

  it('worker logs jobs and failed jobs with stacks, and keeps running', async () => {
    const worker = start(process.execPath, ['worker.mjs'], {DEMO_TICK_MS: '20'}, demo);
    await waitFor(worker.stderr, /job 24 send-email failed/, worker.child);
    expect(worker.stderr()).toMatch(/^TypeError: Cannot read properties of null \(reading 'width'\)\n {4}at /m);
    expect(worker.stderr()).toMatch(/^Error: connect ECONNREFUSED 127\.0\.0\.1:\d+$/m);
    expect(worker.stdout()).toMatch(/^job 23 \S+ (started|done in \d+ms)$/m);
    expect(worker.child.exitCode).toBeNull();
  });
});
