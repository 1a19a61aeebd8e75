// The gateway block of `.workbench.kdl` and of a `--config` file: what it accepts, and one
// config_invalid naming the file and line for anything else.
import {mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {isWorkbenchError} from '../../../source/core/errors.js';
import {parseDuration} from '../../../source/core/duration.js';
import {gatewayConfigOf, loadGatewayConfig} from '../../../source/gateway/config/index.js';
import {DEFAULT_POLL_INTERVAL_MS} from '../../../source/gateway/types.js';
import {parseProjectConfig} from '../../../source/project/config.js';

/** The gateway config of a file's text, as the gateway reads it. */
const configOf = (text: string) => gatewayConfigOf(parseProjectConfig(text, 'g.kdl').gateway, 'g.kdl');

function errorOf(text: string): {code: string; message: string} {
  try {
    configOf(text);
  } catch (error) {
    if (!isWorkbenchError(error)) throw error;
    return {code: error.code, message: error.message};
  }
  throw new Error(`expected the config to be refused: ${text}`);
}

describe('the gateway block', () => {
  it('reads feeds with their origin, interval and title, and defaults the interval', () => {
    const config = configOf(`scripts {
  dev { run "vite" }
}
gateway {
  feed "news" origin="https://example.com/feed.xml" poll-interval="30s" title="News"
  // a comment
  feed "Local.feed_1" origin="http://127.0.0.1:8080/rss"
  /-feed "off" origin="not a url"
  feed "daily" origin="http://example.org/atom" poll-interval="1d"
  feed "mixed" origin="http://example.org/x" poll-interval="2h30m"
}
`);
    expect(config).toEqual({
      feeds: [
        {name: 'news', origin: 'https://example.com/feed.xml', pollIntervalMs: 30_000, title: 'News'},
        {name: 'Local.feed_1', origin: 'http://127.0.0.1:8080/rss', pollIntervalMs: DEFAULT_POLL_INTERVAL_MS},
        {name: 'daily', origin: 'http://example.org/atom', pollIntervalMs: 86_400_000},
        {name: 'mixed', origin: 'http://example.org/x', pollIntervalMs: 9_000_000},
      ],
    });
  });

  it('adds up two gateway blocks, and gives no feeds without one', () => {
    expect(configOf('gateway {\n  feed "a" origin="http://a.test/"\n}\ngateway {\n  feed "b" origin="http://b.test/"\n}\n').feeds.map((f) => f.name)).toEqual(['a', 'b']);
    expect(configOf('scripts {\n}\n')).toEqual({feeds: []});
    expect(configOf('gateway {\n}\n')).toEqual({feeds: []});
    // The project's own blocks see the gateway block but are not changed by it.
    expect(parseProjectConfig('scripts {\n  dev { run "x" }\n}\n')).toEqual({scripts: [{name: 'dev', run: 'x', autostart: false}], proxies: []});
  });

  it.each([
    ['gateway "x" {\n}\n', 'g.kdl:1: gateway takes no values, only a { } block of feed entries'],
    ['gateway {\n  proxy "a" origin="http://a.test/"\n}\n', 'g.kdl:2: gateway: unknown entry "proxy" (expected feed "<name>" origin="<url>")'],
    ['gateway {\n  feed origin="http://a.test/"\n}\n', 'g.kdl:2: gateway.feed: expected one name in quotes, e.g. feed "news" origin="https://…", got 0 values'],
    ['gateway {\n  feed "a" "b" origin="http://a.test/"\n}\n', 'g.kdl:2: gateway.feed: expected one name in quotes, e.g. feed "news" origin="https://…", got 2 values'],
    ['gateway {\n  feed 42 origin="http://a.test/"\n}\n', 'g.kdl:2: gateway.feed: expected one name in quotes, e.g. feed "news" origin="https://…", got 42'],
    ['gateway {\n  feed "my feed" origin="http://a.test/"\n}\n', 'g.kdl:2: gateway.feed: name "my feed" must be one word without spaces'],
    ['gateway {\n  feed "a"\n}\n', 'g.kdl:2: gateway.feed "a": missing origin="<http(s) URL of the feed>"'],
    ['gateway {\n  feed "a" origin="example.com/feed"\n}\n', 'g.kdl:2: gateway.feed "a": origin must be an http:// or https:// URL, got "example.com/feed"'],
    ['gateway {\n  feed "a" origin="file:///etc/passwd"\n}\n', 'g.kdl:2: gateway.feed "a": origin must be an http:// or https:// URL, got "file:///etc/passwd"'],
    ['gateway {\n  feed "a" origin=5\n}\n', 'g.kdl:2: gateway.feed "a": origin expects a string in quotes, got 5'],
    ['gateway {\n  feed "a" origin=""\n}\n', 'g.kdl:2: gateway.feed "a": origin must not be empty'],
    ['gateway {\n  feed "a" origin="http://a.test/" url="http://b.test/"\n}\n', 'g.kdl:2: gateway.feed "a": unknown property url=... (expected origin, poll-interval, title)'],
    ['gateway {\n  feed "a" origin="http://a.test/" origin="http://b.test/"\n}\n', 'g.kdl:2: gateway.feed "a": origin is set twice'],
    ['gateway {\n  feed "a" origin="http://a.test/" {\n    title "x"\n  }\n}\n', 'g.kdl:2: gateway.feed: takes its settings as properties (origin="..."), not a block'],
    [
      'gateway {\n  feed "a" origin="http://a.test/" poll-interval="often"\n}\n',
      'g.kdl:2: gateway.feed "a": poll-interval must be a duration like 30s, 10m, 2h or 1d, got "often"',
    ],
    ['gateway {\n  feed "a" origin="http://a.test/" poll-interval="10"\n}\n', 'g.kdl:2: gateway.feed "a": poll-interval must be a duration like 30s, 10m, 2h or 1d, got "10"'],
    ['gateway {\n  feed "a" origin="http://a.test/" poll-interval="-5m"\n}\n', 'g.kdl:2: gateway.feed "a": poll-interval must be a duration like 30s, 10m, 2h or 1d, got "-5m"'],
    ['gateway {\n  feed "a" origin="http://a.test/" poll-interval="0s"\n}\n', 'g.kdl:2: gateway.feed "a": poll-interval must be a duration like 30s, 10m, 2h or 1d, got "0s"'],
    ['gateway {\n  feed "a" origin="http://a.test/" poll-interval=600\n}\n', 'g.kdl:2: gateway.feed "a": poll-interval expects a string in quotes, got 600'],
    ['gateway {\n  feed "a" origin="http://a.test/" poll-interval="9s"\n}\n', 'g.kdl:2: gateway.feed "a": poll-interval must be at least 10s'],
    ['gateway {\n  feed "a" origin="http://a.test/" poll-interval="400d"\n}\n', 'g.kdl:2: gateway.feed "a": poll-interval must be at most 365d'],
    ['gateway {\n  feed "a" origin="http://a.test/" title=#null\n}\n', 'g.kdl:2: gateway.feed "a": title expects a string in quotes, got null'],
    ['gateway {\n  feed "a" origin="http://a.test/"\n\n  feed "a" origin="http://b.test/"\n}\n', 'g.kdl:4: gateway: duplicate feed "a" (first defined on line 2)'],
    ['gateway {\n  feed "api" origin="http://a.test/"\n}\n', 'g.kdl:2: gateway.feed "api": the name is taken by the gateway\'s own routes (api, health, favicon.ico, robots.txt)'],
    [
      'gateway {\n  feed "Health" origin="http://a.test/"\n}\n',
      'g.kdl:2: gateway.feed "Health": the name is taken by the gateway\'s own routes (api, health, favicon.ico, robots.txt)',
    ],
  ])('refuses %j', (text, message) => {
    expect(errorOf(text)).toEqual({code: 'config_invalid', message});
  });

  it.each(['a/b', '.hidden', '-x', 'x'.repeat(65), 'ünï', 'a?b', '%2e%2e'])('refuses the feed name %j (it is the path /<name>)', (name) => {
    expect(errorOf(`gateway {\n  feed ${JSON.stringify(name)} origin="http://a.test/"\n}\n`).message).toMatch(/^g\.kdl:2: gateway\.feed ".*": a name is 1 to 64 letters/);
  });
});

describe('parseDuration', () => {
  it('reads the units and refuses what is not a duration', () => {
    expect([parseDuration('30s'), parseDuration('10m'), parseDuration('2h'), parseDuration('1d'), parseDuration(' 1h30m '), parseDuration('500ms'), parseDuration('.5m')]).toEqual([
      30_000, 600_000, 7_200_000, 86_400_000, 5_400_000, 500, 30_000,
    ]);
    for (const text of ['', '10', 'm', '1x', '-1s', '1 s', '1s2', 'abc', '1e3s', 'Infinityd']) expect(parseDuration(text), text).toBeUndefined();
  });
});

describe('loadGatewayConfig', () => {
  let root = '';
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'wb-gateway-config-'));
  });
  afterEach(() => rmSync(root, {recursive: true, force: true}));

  it('reads the project’s .workbench.kdl, and gives no feeds without the file or the block', async () => {
    expect(await loadGatewayConfig({root})).toEqual({feeds: []});
    writeFileSync(join(root, '.workbench.kdl'), 'scripts {\n  dev { run "vite" }\n}\n');
    expect(await loadGatewayConfig({root})).toEqual({feeds: []});
    writeFileSync(join(root, '.workbench.kdl'), 'gateway {\n  feed "news" origin="https://example.com/rss" poll-interval="10m"\n}\n');
    expect(await loadGatewayConfig({root})).toEqual({feeds: [{name: 'news', origin: 'https://example.com/rss', pollIntervalMs: 600_000}]});
  });

  it('names the project file and line of a bad feed', async () => {
    writeFileSync(join(root, '.workbench.kdl'), 'gateway {\n  feed "api" origin="https://example.com/rss"\n}\n');
    await expect(loadGatewayConfig({root})).rejects.toMatchObject({
      code: 'config_invalid',
      message: expect.stringContaining(`${join(root, '.workbench.kdl')}:2: gateway.feed "api"`),
    });
  });

  it('reads --config (relative to the root) instead of the project file', async () => {
    writeFileSync(join(root, '.workbench.kdl'), 'gateway {\n  feed "project" origin="https://example.com/rss"\n}\n');
    mkdirSync(join(root, 'conf'));
    writeFileSync(join(root, 'conf', 'gateway.kdl'), 'gateway {\n  feed "other" origin="https://example.org/atom" title="Other"\n}\n');
    expect(await loadGatewayConfig({root, configFile: 'conf/gateway.kdl'})).toEqual({
      feeds: [{name: 'other', origin: 'https://example.org/atom', pollIntervalMs: DEFAULT_POLL_INTERVAL_MS, title: 'Other'}],
    });
    expect((await loadGatewayConfig({root, configFile: join(root, 'conf', 'gateway.kdl')})).feeds[0]!.name).toBe('other');
  });

  it('refuses a --config that is missing, a directory, empty of a gateway block, or not KDL', async () => {
    const file = join(root, 'gateway.kdl');
    await expect(loadGatewayConfig({root, configFile: 'gateway.kdl'})).rejects.toMatchObject({code: 'config_invalid', message: `${file}: no such file`});
    mkdirSync(file);
    await expect(loadGatewayConfig({root, configFile: 'gateway.kdl'})).rejects.toMatchObject({code: 'config_invalid', message: `${file}: is a directory`});
    rmSync(file, {recursive: true});
    writeFileSync(file, 'scripts {\n}\n');
    await expect(loadGatewayConfig({root, configFile: 'gateway.kdl'})).rejects.toMatchObject({
      code: 'config_invalid',
      message: `${file}: no gateway block (expected gateway { feed "<name>" origin="<url>" })`,
    });
    writeFileSync(file, '');
    await expect(loadGatewayConfig({root, configFile: 'gateway.kdl'})).rejects.toMatchObject({code: 'config_invalid', message: expect.stringContaining('no gateway block')});
    writeFileSync(file, Buffer.from([0x00, 0xff, 0xfe, 0x7b, 0x0a]));
    await expect(loadGatewayConfig({root, configFile: 'gateway.kdl'})).rejects.toMatchObject({
      code: 'config_invalid',
      message: expect.stringMatching(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:1: `)),
    });
    await expect(loadGatewayConfig({root, configFile: '  '})).rejects.toMatchObject({code: 'config_invalid', message: '--config needs a file name'});
  });
});

// Damaged copies of a valid gateway block: each parses or gives one config_invalid naming a real line.
const VALID = 'gateway {\n  feed "news" origin="https://example.com/rss" poll-interval="10m" title="News"\n  feed "b" origin="http://127.0.0.1:1/x"\n}\n';
const DAMAGE = ['{', '}', '"', '#', '/-', '//', '=', '\\', '\n', 'x', 'true', '#"', ' ', '0', 'api', '/'];

describe('the gateway block, damaged', () => {
  it('never throws anything but one config_invalid with a line inside the file', () => {
    let state = 7;
    const next = (n: number): number => {
      state = (state * 1103515245 + 12345) % 2147483648;
      return state % n;
    };
    let rejected = 0;
    for (let round = 0; round < 1000; round++) {
      let text = VALID;
      for (let edits = 0; edits <= next(3); edits++) {
        const at = next(text.length + 1);
        text = text.slice(0, at) + DAMAGE[next(DAMAGE.length)] + text.slice(at + next(2));
      }
      try {
        configOf(text);
      } catch (error) {
        rejected++;
        expect(isWorkbenchError(error) && error.code, JSON.stringify(text)).toBe('config_invalid');
        const message = (error as Error).message;
        expect(message.split('\n'), JSON.stringify(text)).toHaveLength(1);
        const line = Number(/^g\.kdl:(\d+): /.exec(message)?.[1]);
        expect(line >= 1 && line <= text.split('\n').length, `${message} for ${JSON.stringify(text)}`).toBe(true);
      }
    }
    expect(rejected).toBeGreaterThan(500);
  });
});
