import {createServer, type Server} from 'node:http';
import type {AddressInfo} from 'node:net';
import {writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {makeSandbox, runCli, type Sandbox} from '../helpers/cli.js';

// A feed title that writes the clipboard (OSC 52), clears the screen and sets the window title:
// through the built CLI, no ESC or BEL byte reaches stdout; --json keeps the text as it came.
const HOSTILE = '\x1b]52;c;ZXZpbA==\x07\x1b[2J\x1b]0;pwned\x07Hello';
const RSS = `<?xml version="1.0" encoding="utf-8"?>
<rss version="2.0"><channel><title>${HOSTILE}</title><link>http://127.0.0.1/</link>
<item><title>${HOSTILE} item</title><link>http://127.0.0.1/1</link><guid>one</guid><description>&lt;p&gt;${HOSTILE} body&lt;/p&gt;&lt;p&gt;&amp;#27;]0;pwned&amp;#7;World&lt;/p&gt;</description><category>${HOSTILE}</category></item>
</channel></rss>
`;

function expectInert(stdout: string): void {
  expect(stdout).not.toMatch(/[\x1b\x07\x9b\x9d]/);
  expect(stdout).not.toContain('pwned');
  expect(stdout).toContain('Hello');
}

let sandbox: Sandbox;
let server: Server;
let feedUrl: string;
const cli = (args: string[]) => runCli(args, {env: sandbox.env, timeoutMs: 30_000});

beforeAll(async () => {
  sandbox = makeSandbox('wb-inert-');
  server = createServer((_request, response) => response.writeHead(200, {'content-type': 'application/rss+xml'}).end(RSS));
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  feedUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/feed.xml`;
});

afterAll(async () => {
  await new Promise((closed) => server?.close(closed));
  await sandbox?.cleanup();
});

describe('text from outside reaches the terminal inert', () => {
  it('feeds parse <file>: the text view is inert, --json keeps the title whole', async () => {
    const file = join(sandbox.dir, 'hostile.xml');
    writeFileSync(file, RSS);
    const shown = await cli(['feeds', 'parse', file]);
    expect(shown.code, shown.stderr).toBe(0);
    expectInert(shown.stdout);
    const json = await cli(['feeds', 'parse', file, '--json']);
    expect((JSON.parse(json.stdout) as {title: string}).title).toBe(HOSTILE);
  });

  it('feeds add, feeds list, articles list and articles show are inert', async () => {
    const added = await cli(['feeds', 'add', feedUrl]);
    expect(added.code, added.stderr).toBe(0);
    expectInert(added.stdout);
    for (const args of [
      ['feeds', 'list'],
      ['articles', 'list'],
      ['articles', 'show', '1'],
    ]) {
      const result = await cli(args);
      expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(0);
      expectInert(result.stdout);
    }
    expect((await cli(['articles', 'show', '1'])).stdout).toContain('World');
  });

  it('proc list shows a command holding escape sequences inert', async () => {
    const started = await cli(['run', '--id', 'hostile', '--cmd', `echo '${HOSTILE}'; sleep 30`]);
    expect(started.code, started.stderr).toBe(0);
    const listed = await cli(['proc', 'list']);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain('hostile');
    expectInert(listed.stdout);
    await cli(['proc', 'stop', 'hostile']);
  });
});
