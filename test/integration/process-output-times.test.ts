// Output read as a terminal shows it, with the time it was printed (issue 26 items 3 and 4): real
// node processes in ptys under the Supervisor, a real dev proxy in front of one, and the inbox's
// story join as the daemon runs it (the inbox's sources → queryIncidents).
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {createServer, type Server} from 'node:net';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {setTimeout as pause} from 'node:timers/promises';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {Inbox} from '../../source/daemon/inbox.js';
import {createProxyManager} from '../../source/devproxy/create-manager.js';
import {queryIncidents} from '../../source/incidents/incidents.js';
import {Supervisor} from '../../source/processes/supervisor.js';
import type {ProcessInfo} from '../../source/processes/types.js';
import {stripAnsi} from '../../source/text/ansi.js';

const SPINNER = /[\u2800-\u28ff]/;

let dir: string;
let supervisor: Supervisor;
let proxies: ReturnType<typeof createProxyManager>;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'wb-output-times-'));
  supervisor = new Supervisor();
  proxies = createProxyManager();
});
afterEach(async () => {
  await proxies.stopAll();
  await supervisor.stopAll();
  rmSync(dir, {recursive: true, force: true});
});

/** Resolves with the ring's text once `pattern` is in it. */
function outputMatching(id: string, pattern: RegExp): Promise<RegExpExecArray> {
  return new Promise((resolve) => {
    const check = () => {
      const m = pattern.exec(stripAnsi(supervisor.output(id)));
      if (!m) return false;
      supervisor.off('output', onOutput);
      resolve(m);
      return true;
    };
    const onOutput = () => void check();
    supervisor.on('output', onOutput);
    check();
  });
}

function ended(id: string): Promise<ProcessInfo> {
  return new Promise((resolve) => {
    const check = (info: ProcessInfo) => {
      if (info.id !== id || info.status === 'running' || info.status === 'starting') return;
      supervisor.off('change', check);
      resolve(info);
    };
    supervisor.on('change', check);
    check(supervisor.get(id));
  });
}

describe("a story joins the server error printed for its request (the alert's print time)", () => {
  it('two failures 0.3 s apart: each request is joined to its own exception', async () => {
    const server = join(dir, 'server.cjs');
    writeFileSync(
      server,
      `const http = require('node:http');
const server = http.createServer((req, res) => {
  if (req.url === '/throw') {
    try { const user = undefined; user.name; } catch (error) { console.error(error); }
    res.writeHead(500, {'content-type': 'application/json'});
    res.end('{"message":"throw failed"}');
    return;
  }
  if (req.url === '/crash') {
    res.writeHead(500, {'content-type': 'application/json'});
    res.end('{"message":"crashing"}', () => setImmediate(() => { throw new RangeError('crash requested'); }));
    return;
  }
  res.end('ok');
});
server.listen(0, '127.0.0.1', () => console.log('listening on ' + server.address().port));
`,
    );
    supervisor.start({id: 'api', cmd: `${JSON.stringify(process.execPath)} server.cjs`, cwd: dir});
    const port = (await outputMatching('api', /listening on (\d+)/))[1];
    const proxy = await proxies.start({id: 'web', target: `http://127.0.0.1:${port}`});

    const throwSent = Date.now();
    expect((await fetch(`${proxy.url}/throw`)).status).toBe(500);
    await outputMatching('api', /TypeError: Cannot read properties of undefined/);
    // The scenario: the second failure 0.3 s after the first, while the first stack is still open.
    await pause(300);
    const crashSent = Date.now();
    expect((await fetch(`${proxy.url}/crash`)).status).toBe(500);
    await ended('api');

    const alerts = supervisor.alerts.list('api');
    const typeError = alerts.find((alert) => alert.category === 'TypeError')!;
    const rangeError = alerts.find((alert) => alert.category === 'RangeError')!;
    expect(typeError).toBeDefined();
    expect(rangeError).toBeDefined();
    // Stamped when its first line was printed (after /throw was sent, before /crash), not when its stack closed.
    expect(typeError.lastSeen).toBeGreaterThanOrEqual(throwSent);
    expect(typeError.lastSeen).toBeLessThan(crashSent);
    expect(rangeError.lastSeen).toBeGreaterThanOrEqual(crashSent);

    const inbox = new Inbox(supervisor, proxies);
    const incidents = queryIncidents(inbox.sources());
    inbox.close();
    const storyOf = (url: string) => incidents.find((incident) => incident.kind === 'http_5xx' && incident.story?.request.url === url)?.story;
    expect(storyOf('/throw')?.server).toMatchObject({category: 'TypeError', source: 'process:api'});
    expect(storyOf('/crash')?.server).toMatchObject({category: 'RangeError', message: 'crash requested', source: 'process:api'});
  });
});

describe('spinner frames are read as a terminal shows them', () => {
  let taken: Server;
  beforeEach(async () => {
    taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  });
  afterEach(() => new Promise<void>((resolve) => taken.close(() => resolve())));

  it("npm-style frames (ESC[1G ESC[0K) then a crash: the alert's location and proc output show no spinner", async () => {
    const port = (taken.address() as {port: number}).port;
    const script = join(dir, 'dev.cjs');
    writeFileSync(
      script,
      `const frames = '⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏⠋⠙';
const spin = (i, then) => {
  if (i === frames.length) return then();
  process.stderr.write('\\x1b[1G\\x1b[0K' + frames[i]);
  setTimeout(() => spin(i + 1, then), 10);
};
spin(0, () => {
  process.stdout.write('\\x1b[32m✓\\x1b[39m spinner\\x1b[1G\\x1b[0Kready\\n');
  // As npm runs a script: the spinner turns, is cleared, and the script's own output follows on that line.
  spin(0, () => {
    process.stderr.write('\\x1b[1G\\x1b[0K');
    require('node:net').createServer().listen(${port}, '127.0.0.1');
  });
});
`,
    );
    supervisor.start({id: 'dev', cmd: `${JSON.stringify(process.execPath)} dev.cjs`, cwd: dir});
    expect((await ended('dev')).exitCode).toBe(1);

    const [alert] = supervisor.alerts.list('dev').filter((entry) => entry.category === 'EADDRINUSE');
    expect(alert).toBeDefined();
    expect(alert.location).not.toMatch(SPINNER);
    expect(alert.location).not.toBe('');
    expect(alert.message).not.toMatch(SPINNER);
    expect(alert.raw).not.toMatch(SPINNER);

    // No frame in the ring itself (what proc output and the TUI read), not only once stripped.
    expect(supervisor.output('dev')).not.toMatch(SPINNER);
    const shown = stripAnsi(supervisor.output('dev'));
    const lines = shown.split(/\r?\n/);
    // The redrawn line holds only what was drawn last; the crash's header starts its own line.
    expect(lines[0]).toBe('ready');
    expect(lines[1]).toMatch(/^node:events:\d+$/);
    // Colours the program printed reach the ring as they came.
    expect(supervisor.output('dev')).toContain('\x1b[90m    at ');
  });
});
