import {existsSync, mkdirSync, readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {Client} from '@modelcontextprotocol/sdk/client/index.js';
import {StdioClientTransport} from '@modelcontextprotocol/sdk/client/stdio.js';
import {PNG} from 'pngjs';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {requirePackage} from '../helpers/system-package.js';
import {cliPath, makeSandbox, runCli, type Sandbox} from '../helpers/cli.js';
import {startTestPages, type TestPages} from '../helpers/test-pages.js';

/** The CLI and MCP faces of `snapshot` (issue 8, items 7 and 11), through the real logic and a real browser. */

const hasChromium = !requirePackage('chromium', {for: 'the snapshot CLI and MCP tests'});
let sandbox: Sandbox;
let pages: TestPages;

type Answer = {content: Array<{type: string; text: string}>; structuredContent?: Record<string, unknown>; isError?: boolean};

beforeAll(async () => {
  sandbox = makeSandbox('wb-snapshot-faces-');
  pages = await startTestPages();
});

afterAll(async () => {
  await pages?.close();
  await sandbox?.cleanup();
});

const cli = (...args: string[]) => runCli(['snapshot', ...args], {env: sandbox.env, timeoutMs: 90_000});

describe('snapshot on the command line: bad input (no browser needed)', () => {
  it('answers each fault with one line on stderr and exit code 1', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['baseline', '../escape', '--url', `${pages.url}/`], /^workbench: snapshot name "\.\.\/escape" is not allowed/],
      [['baseline', 'x'], /^workbench: snapshot baseline needs the url of the page/],
      [['baseline', 'x', '--url', 'ftp://127.0.0.1/'], /is not http or https/],
      [['baseline', 'x', '--url', 'http://169.254.169.254/'], /refused 169\.254\.169\.254: it is a link-local or cloud metadata address/],
      [['baseline', 'x', '--url', `${pages.url}/`, '--width', 'wide'], /^workbench: --width must be a whole number, got "wide"/],
      [['baseline', 'x', '--url', `${pages.url}/`, '--width', '10'], /^workbench: --width must be 200 or more, not 10\./],
      [['baseline', 'x', '--url', `${pages.url}/`, '--threshold', '0.1'], /--threshold belongs to snapshot compare/],
      [['compare', 'x', '--threshold', '1.5'], /^workbench: --threshold must be 1 or less, not 1\.5\./],
      [['compare', 'x', '--threshold', 'lots'], /^workbench: --threshold must be a number such as 0\.01, got "lots"/],
      [['compare', 'x', '--threshold', '-1'], /^workbench: --threshold must be 0 or more, not -1\./],
      [['compare', 'never-taken'], /^workbench: no baseline named "never-taken": take one first/],
      [['delete', '..'], /is not allowed/],
      [['delete', 'ghost'], /^workbench: no snapshot named "ghost"/],
    ];
    for (const [args, message] of cases) {
      const result = await cli(...args);
      expect(result.code, args.join(' ')).toBe(1);
      expect(result.stderr, args.join(' ')).toMatch(message);
      expect(result.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
    }
    const json = await cli('compare', 'never-taken', '--json');
    expect(JSON.parse(json.stdout)).toEqual({error: expect.stringMatching(/^no baseline named "never-taken"/)});
    expect(existsSync(join(sandbox.home, 'snapshots', 'x'))).toBe(false);
  });

  it('says how to install Chromium when it is missing', async () => {
    const result = await runCli(['snapshot', 'baseline', 'x', '--url', `${pages.url}/`], {env: {...sandbox.env, WORKBENCH_CHROMIUM: '/nonexistent/chromium'}});
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^workbench: Chromium is not installed \(no \/nonexistent\/chromium\): install it with "sudo apt-get install chromium" \(Debian\/Ubuntu\)/);
  });
});

describe.skipIf(!hasChromium)('snapshot on the command line', {timeout: 240_000}, () => {
  it('takes a baseline, passes an unchanged page (exit 0), fails a changed one (exit 1) with a diff, lists and deletes', async () => {
    pages.variant = 'plain';
    const baseline = await cli('baseline', 'cli-home', '--url', `${pages.url}/`, '--width', '800', '--height', '600');
    expect(baseline.code, baseline.stderr).toBe(0);
    expect(baseline.stdout).toContain(`baseline cli-home: ${pages.url}/ at 800×600 → 800×600 px`);

    const same = await cli('compare', 'cli-home');
    expect(same.code, same.stderr).toBe(0);
    expect(same.stdout).toMatch(/^pass cli-home: 0% of pixels changed \(0 of 480,000\), threshold 1\.00%/);

    pages.variant = 'changed';
    const changed = await cli('compare', 'cli-home', '--json');
    expect(changed.code).toBe(1);
    const result = JSON.parse(changed.stdout);
    expect(result).toMatchObject({action: 'compare', name: 'cli-home', passed: false, size_mismatch: false});
    expect(result.ratio).toBeGreaterThan(0.1);
    const diff = PNG.sync.read(readFileSync(result.diff_path));
    expect([diff.width, diff.height]).toEqual([800, 600]);

    const list = await cli('list');
    expect(list.stdout).toMatch(/^NAME +URL +SIZE +TAKEN +LAST COMPARE\ncli-home +http:\/\/127\.0\.0\.1:\d+\/ +800×600 +\d{4}-\d\d-\d\d \d\d:\d\d +FAIL \d+\.\d\d%\n$/);
    const listed = JSON.parse((await cli('list', '--json')).stdout);
    expect(listed).toEqual([expect.objectContaining({name: 'cli-home', url: `${pages.url}/`, image: {width: 800, height: 600}})]);
    // `workbench snapshot` alone lists.
    expect((await runCli(['snapshot'], {env: sandbox.env})).stdout).toBe(list.stdout);

    const deleted = await cli('delete', 'cli-home');
    expect(deleted).toMatchObject({code: 0, stdout: 'deleted snapshot cli-home\n'});
    expect((await cli('list')).stdout).toMatch(/^no snapshots/);
  });
});

describe.skipIf(!hasChromium)('the MCP tool snapshot', {timeout: 240_000}, () => {
  it('answers a summary and file paths, never image bytes; refuses garbage with {error}', async () => {
    const transport = new StdioClientTransport({command: process.execPath, args: [cliPath, 'mcp', '--no-daemon'], env: sandbox.env as Record<string, string>, stderr: 'pipe'});
    const client = new Client({name: 'workbench-test', version: '1.0.0'});
    await client.connect(transport);
    try {
      const call = (args: Record<string, unknown>) => client.callTool({name: 'snapshot', arguments: args}, undefined, {timeout: 120_000}) as Promise<Answer>;
      const {tools} = await client.listTools();
      const tool = tools.find((entry) => entry.name === 'snapshot')!;
      expect(tool.annotations).toMatchObject({readOnlyHint: false, destructiveHint: true, openWorldHint: true});
      const props = tool.inputSchema.properties as Record<string, Record<string, unknown>>;
      expect(props.action).toMatchObject({enum: ['baseline', 'compare', 'list', 'delete'], default: 'list'});
      expect(props.threshold).toMatchObject({minimum: 0, maximum: 1, default: 0.01});

      pages.variant = 'plain';
      const baseline = await call({action: 'baseline', name: 'mcp-home', url: `${pages.url}/`});
      expect(baseline.isError, baseline.content[0]?.text).toBeFalsy();
      expect(baseline.structuredContent).toMatchObject({action: 'baseline', snapshot: {name: 'mcp-home', viewport: {width: 1280, height: 800}}});

      pages.variant = 'changed';
      const compared = await call({action: 'compare', name: 'mcp-home', threshold: 0.001});
      const text = compared.content.map((part) => part.text).join('\n');
      const wire = JSON.stringify(compared);
      expect(text).toMatch(/^FAIL mcp-home: \d+\.\d\d% of pixels changed/);
      expect(text).toContain(join(sandbox.home, 'snapshots', 'mcp-home', 'diff.png'));
      // Small, and no image in it: neither a PNG's base64 signature nor an image part.
      expect(wire.length).toBeLessThan(3000);
      expect(wire).not.toContain('iVBORw0KGgo');
      expect(compared.content.every((part) => part.type === 'text')).toBe(true);
      expect(compared.structuredContent).toMatchObject({action: 'compare', passed: false, threshold: 0.001, diff_path: join(sandbox.home, 'snapshots', 'mcp-home', 'diff.png')});
      expect(existsSync(compared.structuredContent!.diff_path as string)).toBe(true);

      const list = await call({});
      expect(list.structuredContent).toMatchObject({action: 'list', snapshots: [expect.objectContaining({name: 'mcp-home'})]});

      const garbage: Array<[Record<string, unknown>, RegExp]> = [
        [{action: 'compare', name: 'mcp-home', threshold: 2}, /^threshold must be 1 or less, not 2\.$/],
        [{action: 'compare', name: 'mcp-home', threshold: 'high'}, /^threshold must be a number, not "high"\.$/],
        [{action: 'shoot'}, /^action must be one of "baseline", "compare", "list", "delete", not "shoot"\.$/],
        [{action: 'baseline', name: '../../etc/x', url: `${pages.url}/`}, /is not allowed/],
        [{action: 'baseline', name: 'meta', url: 'http://[::ffff:169.254.169.254]/'}, /link-local or cloud metadata address/],
        [{action: 'baseline', name: 'js', url: 'javascript:alert(1)'}, /is not http or https/],
        [{action: 'compare', name: 'missing'}, /^no baseline named "missing"/],
        [{action: 'delete'}, /^snapshot delete needs a name/],
        [{action: 'list', picture: true}, /^Unknown argument picture\.$/],
      ];
      for (const [args, message] of garbage) {
        const answer = await call(args);
        expect(answer.isError, JSON.stringify(args)).toBe(true);
        expect(JSON.parse(answer.content[0]!.text), JSON.stringify(args)).toEqual({error: expect.stringMatching(message)});
      }

      const deleted = await call({action: 'delete', name: 'mcp-home'});
      expect(deleted.structuredContent).toEqual({action: 'delete', name: 'mcp-home'});
    } finally {
      await client.close();
    }
  });
});

describe('the MCP tool snapshot: a long list (no browser needed)', () => {
  it('lists within the answer budget, saying how many there are; the CLI lists them all', async () => {
    const own = makeSandbox('wb-snapshot-list-');
    try {
      for (let index = 0; index < 120; index++) {
        const name = `page-${String(index).padStart(3, '0')}`;
        const dir = join(own.home, 'snapshots', name);
        mkdirSync(dir, {recursive: true});
        writeFileSync(join(dir, 'baseline.png'), 'png');
        const meta = {name, url: `http://127.0.0.1:3000/${name}`, viewport: {width: 1280, height: 800}, full_page: false, image: {width: 1280, height: 800}};
        writeFileSync(join(dir, 'meta.json'), JSON.stringify({...meta, bytes: 3, created_at: '2026-11-01T10:00:00.000Z', status: 200, title: 't'}));
      }
      const transport = new StdioClientTransport({command: process.execPath, args: [cliPath, 'mcp', '--no-daemon'], env: own.env as Record<string, string>, stderr: 'pipe'});
      const client = new Client({name: 'workbench-test', version: '1.0.0'});
      await client.connect(transport);
      try {
        const answer = (await client.callTool({name: 'snapshot', arguments: {action: 'list'}})) as Answer;
        const shown = answer.structuredContent!.snapshots as unknown[];
        expect(answer.structuredContent!.total).toBe(120);
        expect(shown.length).toBeGreaterThan(0);
        expect(shown.length).toBeLessThan(120);
        expect(answer.content[0]!.text).toContain(`[showing ${shown.length} of 120:`);
        expect(JSON.stringify(answer).length).toBeLessThan(20_000 * 1.6);
      } finally {
        await client.close();
      }
      const cliList = await runCli(['snapshot', 'list'], {env: own.env});
      expect(cliList.stdout.trim().split('\n')).toHaveLength(121);
    } finally {
      await own.cleanup();
    }
  });
});
