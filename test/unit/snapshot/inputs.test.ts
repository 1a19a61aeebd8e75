import {mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {describe, expect, it} from 'vitest';
import {launchChromium} from '../../../source/browser/chromium.js';
import {checkSnapshotName} from '../../../source/snapshot/name.js';
import {checkPageUrl} from '../../../source/snapshot/page-url.js';

describe('snapshot names', () => {
  it('takes letters, digits, dot, dash and underscore', () => {
    for (const name of ['home', 'Home-2', 'a.b_c', '0']) expect(checkSnapshotName(name, 'baseline')).toBe(name);
  });

  it('refuses a path, a traversal, hidden names, odd characters and a missing name', () => {
    for (const name of ['../x', '..', '.', 'a/b', 'a\\b', '.hidden', '-flag', 'a b', 'é', 'x\0y', 'a'.repeat(101)])
      expect(() => checkSnapshotName(name, 'baseline'), name).toThrow(/is not allowed: use up to 100 letters/);
    expect(() => checkSnapshotName(undefined, 'compare')).toThrow('snapshot compare needs a name');
  });
});

describe('page URLs', () => {
  it('allows http(s) on loopback and private addresses (a developer’s own server)', async () => {
    expect((await checkPageUrl('http://127.0.0.1:3000/')).href).toBe('http://127.0.0.1:3000/');
    expect((await checkPageUrl('https://192.168.1.10/app')).host).toBe('192.168.1.10');
  });

  it('refuses what is not http(s) and what is not a URL', async () => {
    for (const url of ['ftp://127.0.0.1/', 'file:///etc/passwd', 'javascript:alert(1)', 'data:text/html,hi', 'chrome://settings'])
      await expect(checkPageUrl(url), url).rejects.toThrow(/is not http or https/);
    await expect(checkPageUrl('localhost:3000')).rejects.toThrow(/is not http or https/);
    await expect(checkPageUrl('not a url')).rejects.toThrow(/is not a URL/);
  });

  it('refuses link-local and cloud metadata addresses in any spelling', async () => {
    for (const url of ['http://169.254.169.254/latest/meta-data/', 'http://[::ffff:169.254.169.254]/', 'http://2852039166/', 'http://[fe80::1]/', 'http://[fd00:ec2::254]/'])
      await expect(checkPageUrl(url), url).rejects.toThrow(/link-local or cloud metadata address, which is never fetched/);
  });
});

describe('the Chromium launcher', () => {
  it('says how to install Chromium when the binary is missing', async () => {
    const before = process.env.WORKBENCH_CHROMIUM;
    process.env.WORKBENCH_CHROMIUM = '/nonexistent/chromium';
    try {
      await expect(launchChromium()).rejects.toMatchObject({
        code: 'browser_unavailable',
        message: expect.stringMatching(/^Chromium is not installed \(no \/nonexistent\/chromium\): install it with "sudo apt-get install chromium"/),
      });
    } finally {
      if (before === undefined) delete process.env.WORKBENCH_CHROMIUM;
      else process.env.WORKBENCH_CHROMIUM = before;
    }
  });

  it('says so when the binary cannot be run, or runs and is no browser', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wb-chromium-'));
    const before = process.env.WORKBENCH_CHROMIUM;
    try {
      process.env.WORKBENCH_CHROMIUM = join(dir, 'not-executable');
      writeFileSync(process.env.WORKBENCH_CHROMIUM, '#!/bin/sh\n', {mode: 0o644});
      await expect(launchChromium()).rejects.toMatchObject({code: 'browser_unavailable', message: expect.stringMatching(/not-executable cannot be run \(EACCES\)/)});
      process.env.WORKBENCH_CHROMIUM = join(dir, 'exits');
      writeFileSync(process.env.WORKBENCH_CHROMIUM, '#!/bin/sh\necho no browser here >&2\nexit 3\n', {mode: 0o755});
      await expect(launchChromium({timeoutMs: 15_000})).rejects.toMatchObject({
        code: 'browser_unavailable',
        message: expect.stringMatching(/^Chromium \(.*exits\) did not start: .*\(it said: no browser here\)$/),
      });
    } finally {
      if (before === undefined) delete process.env.WORKBENCH_CHROMIUM;
      else process.env.WORKBENCH_CHROMIUM = before;
      rmSync(dir, {recursive: true, force: true});
    }
  });
});
