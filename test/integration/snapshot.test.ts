import {existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {PNG} from 'pngjs';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {compareSnapshot, deleteSnapshot, listSnapshots, takeBaseline} from '../../source/snapshot/snapshots.js';
import {requirePackage} from '../helpers/system-package.js';
import {startTestPages, type TestPages} from '../helpers/test-pages.js';

/** Item 7 of issue 8: baseline, compare, list and delete through the logic, with real headless Chromium. */

const hasChromium = !requirePackage('chromium', {for: 'the snapshot tests'});
let pages: TestPages;
let home: string;

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'wb-snapshot-'));
  pages = await startTestPages();
});

afterAll(async () => {
  await pages?.close();
  rmSync(home, {recursive: true, force: true});
});

const png = (path: string) => PNG.sync.read(readFileSync(path));

// Each capture starts a browser (2–6 s on two loaded cores): the tests get room for several.
describe.skipIf(!hasChromium)('visual snapshots in headless Chromium', {timeout: 180_000}, () => {
  it('stores a baseline, passes an identical page, fails a changed one with a diff image, lists and deletes', async () => {
    pages.variant = 'plain';
    const baseline = await takeBaseline({name: 'home', url: `${pages.url}/`, home});
    expect(baseline.snapshot).toMatchObject({
      name: 'home',
      url: `${pages.url}/`,
      viewport: {width: 1280, height: 800},
      image: {width: 1280, height: 800},
      status: 200,
      title: 'Test page',
    });
    expect(baseline.baseline_path).toBe(join(home, 'snapshots', 'home', 'baseline.png'));
    expect([png(baseline.baseline_path).width, png(baseline.baseline_path).height]).toEqual([1280, 800]);
    expect(JSON.parse(readFileSync(join(home, 'snapshots', 'home', 'meta.json'), 'utf8'))).toMatchObject({url: `${pages.url}/`, viewport: {width: 1280, height: 800}});

    const same = await compareSnapshot({name: 'home', home});
    expect(same).toMatchObject({ratio: 0, changed_pixels: 0, passed: true, size_mismatch: false, url: `${pages.url}/`, threshold: 0.01});
    expect(existsSync(same.current_path)).toBe(true);

    pages.variant = 'changed';
    const changed = await compareSnapshot({name: 'home', home});
    // Two 400×300 boxes that no longer overlap: the red one went, the blue one came.
    expect(changed.ratio).toBeGreaterThan(0.2);
    expect(changed.changed_pixels).toBeGreaterThan(200_000);
    expect(changed.passed).toBe(false);
    const diff = png(changed.diff_path);
    expect([diff.width, diff.height]).toEqual([1280, 800]);
    // A pixel inside the old box is red in the diff; one outside both boxes is not.
    const at = (x: number, y: number) => [...diff.data.subarray((y * 1280 + x) * 4, (y * 1280 + x) * 4 + 3)];
    expect(at(100, 100)).toEqual([255, 0, 0]);
    expect(at(1200, 700)[1]).toBeGreaterThan(200);

    const lenient = await compareSnapshot({name: 'home', threshold: 0.5, home});
    expect(lenient.passed).toBe(true);

    const [listed] = listSnapshots(home);
    expect(listed).toMatchObject({name: 'home', url: `${pages.url}/`, image: {width: 1280, height: 800}, last_compare: {passed: true, threshold: 0.5}});
    expect(Date.parse(listed!.created_at)).not.toBeNaN();

    expect(deleteSnapshot('home', home)).toEqual({name: 'home'});
    expect(listSnapshots(home)).toEqual([]);
    expect(existsSync(join(home, 'snapshots', 'home'))).toBe(false);
    expect(() => deleteSnapshot('home', home)).toThrow('no snapshot named "home"');
  });

  it('answers a page of another size with a size mismatch and a diff of the larger size, not a crash', async () => {
    pages.variant = 'plain';
    await takeBaseline({name: 'whole', url: `${pages.url}/`, full_page: true, width: 800, height: 600, home});
    pages.variant = 'tall';
    const result = await compareSnapshot({name: 'whole', home});
    expect(result).toMatchObject({size_mismatch: true, passed: false, baseline_size: {width: 800, height: 600}, current_size: {width: 800}});
    expect(result.current_size.height).toBeGreaterThanOrEqual(2000);
    const diff = png(result.diff_path);
    expect([diff.width, diff.height]).toEqual([800, result.current_size.height]);
  });

  it('blocks what the page loads from a metadata address, and names it in the answer', async () => {
    const result = await takeBaseline({name: 'embeds', url: `${pages.url}/embeds-metadata`, home});
    expect(result.refused).toEqual([expect.stringContaining('refused 169.254.169.254: it is a link-local or cloud metadata address')]);
  });

  it('refuses a redirect to a metadata address, over http and https', async () => {
    for (const path of ['/to-metadata', '/to-metadata-https'])
      await expect(takeBaseline({name: 'redirected', url: `${pages.url}${path}`, home}), path).rejects.toMatchObject({
        code: 'page_unreachable',
        message: `could not load ${pages.url}${path}: refused 169.254.169.254: it is a link-local or cloud metadata address, which is never fetched`,
      });
    expect(existsSync(join(home, 'snapshots', 'redirected'))).toBe(false);
  });

  it('gives up on a page that never answers at the timeout, and on a closed port at once, with clear errors', async () => {
    await expect(takeBaseline({name: 'hang', url: `${pages.url}/hang`, timeout: 3, home})).rejects.toMatchObject({
      code: 'page_unreachable',
      message: `${pages.url}/hang did not finish loading within 3 s (raise timeout if the page is slow)`,
    });
    const closed = await startTestPages();
    const url = `${closed.url}/`;
    await closed.close();
    await expect(takeBaseline({name: 'closed', url, home})).rejects.toMatchObject({code: 'page_unreachable', message: `could not load ${url}: connection refused (ECONNREFUSED)`});
    expect(existsSync(join(home, 'snapshots', 'hang', 'meta.json'))).toBe(false);
  });
});

describe('snapshot input faults (no browser needed)', () => {
  it('refuses bad names, traversal, bad thresholds, non-http and metadata URLs, a missing url and a missing baseline', async () => {
    const url = 'http://127.0.0.1:9/';
    await expect(takeBaseline({name: '../escape', url, home})).rejects.toThrow(/snapshot name "..\/escape" is not allowed/);
    await expect(takeBaseline({name: '..', url, home})).rejects.toThrow(/is not allowed/);
    await expect(takeBaseline({name: 'a/b', url, home})).rejects.toThrow(/is not allowed/);
    await expect(takeBaseline({name: 'x', home})).rejects.toThrow(/snapshot baseline needs the url of the page/);
    await expect(takeBaseline({name: 'x', url: 'file:///etc/passwd', home})).rejects.toThrow(/is not http or https/);
    await expect(takeBaseline({name: 'x', url: 'http://169.254.169.254/latest/meta-data/', home})).rejects.toThrow(/link-local or cloud metadata address/);
    for (const threshold of [-0.1, 1.5, Number.NaN]) await expect(compareSnapshot({name: 'x', threshold, home})).rejects.toThrow(/threshold must be between 0 and 1/);
    await expect(compareSnapshot({name: 'never-taken', home})).rejects.toMatchObject({
      code: 'not_found',
      message: expect.stringMatching(/^no baseline named "never-taken": take one first/),
    });
    expect(() => deleteSnapshot('../../etc', home)).toThrow(/is not allowed/);
    expect(existsSync(join(home, 'snapshots', 'x'))).toBe(false);
  });

  it('says a damaged meta.json cannot be read, and leaves it out of the list', async () => {
    const dir = join(home, 'snapshots', 'broken');
    const {mkdirSync} = await import('node:fs');
    mkdirSync(dir, {recursive: true});
    writeFileSync(join(dir, 'baseline.png'), 'x');
    writeFileSync(join(dir, 'meta.json'), '{not json');
    expect(listSnapshots(home).map((snapshot) => snapshot.name)).not.toContain('broken');
    await expect(compareSnapshot({name: 'broken', home})).rejects.toThrow(/meta.json cannot be read .*take the baseline again or delete the snapshot/);
    deleteSnapshot('broken', home);
  });
});
