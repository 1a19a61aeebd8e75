import {afterEach, describe, expect, it, vi} from 'vitest';
import type {ScannedAlert} from '../../../source/incidents/types.js';
import {createAlertScanner, MAX_LINE_BYTES, scanText} from '../../../source/processes/scanner/scanner.js';
import {sampleBytes, sampleNames} from './sample.js';

function collect(chunks: Array<Buffer | Uint8Array | string>, end = true) {
  const alerts: ScannedAlert[] = [];
  let successes = 0;
  const scanner = createAlertScanner({onAlert: (alert) => alerts.push(alert), onBuildSuccess: () => successes++});
  for (const chunk of chunks) scanner.write(chunk);
  if (end) scanner.end();
  return {alerts, successes, scanner};
}

function seededRandom(seed: number): () => number {
  let state = seed;
  return () => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state / 2 ** 32;
  };
}

describe('chunking', () => {
  // Every sample, cut in two at every byte (mid-line, mid-ANSI code, mid-UTF-8 sequence, between \r and \n).
  it.each(sampleNames())('%s gives the same alerts whatever byte it is split at', (name) => {
    const bytes = sampleBytes(name);
    const whole = collect([bytes]);
    expect(whole.alerts.length + whole.successes).toBeGreaterThan(0);
    for (let cut = 1; cut < bytes.length; cut++) {
      const split = collect([bytes.subarray(0, cut), bytes.subarray(cut)]);
      expect(split.alerts, `cut at byte ${cut}`).toEqual(whole.alerts);
      expect(split.successes).toBe(whole.successes);
    }
  });

  it('gives the same alerts for all samples in one stream fed in random small chunks, with CRLF line ends', () => {
    const stream = Buffer.concat(sampleNames().map((name) => sampleBytes(name)));
    const crlf = Buffer.from(stream.toString('latin1').replace(/\n/g, '\r\n'), 'latin1');
    const whole = collect([stream]);
    expect(whole.alerts.length).toBeGreaterThan(40);
    const random = seededRandom(7);
    const chunks: Buffer[] = [];
    for (let at = 0; at < crlf.length;) {
      const size = 1 + Math.floor(random() * 64);
      chunks.push(crlf.subarray(at, at + size));
      at += size;
    }
    const pieces = collect(chunks);
    expect(pieces.alerts).toEqual(whole.alerts);
    expect(pieces.successes).toBe(whole.successes);
  });

  it('accepts strings and Uint8Arrays as well as Buffers', () => {
    const text = 'Error: boom\n    at main (/app/src/index.js:3:9)\n';
    const fromString = collect([text]).alerts;
    const fromBytes = collect([new Uint8Array(Buffer.from(text))]).alerts;
    expect(fromString).toHaveLength(1);
    expect(fromBytes).toEqual(fromString);
  });
});

describe('bad input', () => {
  it('never throws on binary garbage and invalid UTF-8', () => {
    const random = seededRandom(42);
    const garbage = Buffer.alloc(1 << 20);
    for (let i = 0; i < garbage.length; i++) garbage[i] = Math.floor(random() * 256);
    const invalid = Buffer.from([0xff, 0xfe, 0x80, 0xc3, 0x28, 0xe2, 0x82, 0xf0, 0x28, 0x8c, 0x00, 0x1b, 0x5b, 0x9b]);
    expect(() => {
      const result = collect([garbage, invalid, garbage.subarray(0, 1000), invalid]);
      expect(Array.isArray(result.alerts)).toBe(true);
    }).not.toThrow();
  });

  it('reads an error whose message holds invalid bytes, replacing them', () => {
    const line = Buffer.concat([Buffer.from('TypeError: bad '), Buffer.from([0xff, 0xc3]), Buffer.from(' value\n    at f (/app/a.js:1:2)\n')]);
    const [alert] = collect([line]).alerts;
    expect(alert.category).toBe('TypeError');
    expect(alert.message).toBe('bad \uFFFD\uFFFD value');
    expect(alert.location).toBe('/app/a.js:1:2');
  });

  it('keeps memory bounded on a 50 MB line without a newline, then reads the next lines', () => {
    const alerts: ScannedAlert[] = [];
    const scanner = createAlertScanner({onAlert: (alert) => alerts.push(alert)});
    const megabyte = Buffer.alloc(1 << 20, 'x');
    megabyte.write('Error: inside a giant line ', 4096);
    for (let i = 0; i < 50; i++) {
      scanner.write(megabyte);
      expect(scanner.bufferedBytes).toBeLessThanOrEqual(MAX_LINE_BYTES);
    }
    scanner.write('\nTypeError: after the giant line\n    at g (/app/b.js:2:3)\n');
    scanner.end();
    expect(alerts.map((a) => a.category)).toEqual(['TypeError']);
    expect(alerts[0].location).toBe('/app/b.js:2:3');
  });

  it("caps one alert's raw text and body however long its stack", () => {
    const frames = Array.from({length: 5000}, (_, i) => `    at fn${i} (/app/src/deep.js:${i + 1}:1)`).join('\n');
    const alerts: ScannedAlert[] = [];
    const scanner = createAlertScanner({onAlert: (alert) => alerts.push(alert)});
    scanner.write(`RangeError: Maximum call stack size exceeded\n${frames}\n`);
    expect(scanner.bufferedBytes).toBeLessThan(16 * 1024);
    scanner.end();
    expect(alerts).toHaveLength(1);
    expect(alerts[0].raw.length).toBeLessThanOrEqual(8 * 1024);
    expect(alerts[0].location).toBe('/app/src/deep.js:1:1');
  });
});

describe('ANSI colours', () => {
  it('matches coloured error lines and reports clean messages', () => {
    const text =
      "\x1b[31m\x1b[1mTypeError\x1b[22m: Cannot read properties of undefined (reading \x1b[32m'id'\x1b[39m)\x1b[39m\n    at \x1b[36mload\x1b[39m (/app/src/user.js:7:19)\n";
    const [alert] = scanText(text).alerts;
    expect(alert).toMatchObject({category: 'TypeError', message: "Cannot read properties of undefined (reading 'id')", location: '/app/src/user.js:7:19'});
    expect(alert.raw).not.toMatch(/\x1b/);
  });

  it('reads the line a spinner leaves after carriage returns', () => {
    const text = '⠋ building...\r⠙ building...\r\x1b[K✘ [ERROR] Could not resolve "./missing"\n\n    src/main.ts:1:7:\n      1 │ import "./missing"\n';
    const [alert] = scanText(text).alerts;
    expect(alert).toMatchObject({category: 'esbuild', message: 'Could not resolve "./missing"', location: 'src/main.ts:1:7', compile: true});
  });
});

describe('when a report ends', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('holds a stack open until a line no longer belongs to it', () => {
    const {alerts, scanner} = collect(['Error: boom\n    at a (/app/a.js:1:1)\n'], false);
    expect(alerts).toHaveLength(0);
    scanner.write('    at b (/app/b.js:2:2)\nGET / 200\n');
    expect(alerts).toHaveLength(1);
    expect(alerts[0].raw.split('\n')).toHaveLength(3);
  });

  it('flush() ends an open report; end() also reads a last line without newline', () => {
    const first = collect(['Error: boom\n    at a (/app/a.js:1:1)\n'], false);
    first.scanner.flush();
    expect(first.alerts.map((a) => a.message)).toEqual(['boom']);
    first.scanner.write('    at b (/app/b.js:2:2)\n');
    first.scanner.end();
    expect(first.alerts).toHaveLength(1);

    const second = collect(['panic: oops'], false);
    expect(second.alerts).toHaveLength(0);
    second.scanner.end();
    expect(second.alerts.map((a) => a.category)).toEqual(['panic']);
  });

  it("with idleMs, an unref'd timer ends a report after output goes quiet", () => {
    vi.useFakeTimers();
    const alerts: ScannedAlert[] = [];
    const scanner = createAlertScanner({onAlert: (alert) => alerts.push(alert)}, {idleMs: 200});
    scanner.write('Error: boom\n    at a (/app/a.js:1:1)\n');
    vi.advanceTimersByTime(150);
    scanner.write('    at b (/app/b.js:2:2)\n');
    vi.advanceTimersByTime(150);
    expect(alerts).toHaveLength(0);
    vi.advanceTimersByTime(60);
    expect(alerts).toHaveLength(1);
    expect(alerts[0].raw).toContain('/app/b.js:2:2');
  });
});
