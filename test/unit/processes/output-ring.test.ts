import {describe, expect, it} from 'vitest';
import {OutputRing, selectOutput} from '../../../source/processes/output-ring.js';

describe('OutputRing', () => {
  it('keeps only the newest bytes while counting everything seen', () => {
    const ring = new OutputRing(1000);
    for (let i = 0; i < 5000; i++) ring.write(Buffer.from(`line ${i}\n`));
    expect(ring.heldChars).toBeLessThanOrEqual(1000);
    expect(ring.text().endsWith('line 4999\n')).toBe(true);
    expect(ring.text()).not.toContain('line 10\n');
    expect(ring.totalBytes).toBeGreaterThan(40_000);
  });

  it('joins a UTF-8 character split across chunks and replaces invalid bytes', () => {
    const ring = new OutputRing();
    const euro = Buffer.from('€ ok\n');
    ring.write(euro.subarray(0, 1));
    ring.write(euro.subarray(1));
    ring.write(Buffer.from([0xff, 0xfe, 0x0a]));
    expect(ring.text()).toBe('€ ok\n\uFFFD\uFFFD\n');
  });

  it('cuts a single chunk larger than the ring to its tail', () => {
    const ring = new OutputRing(100);
    ring.write('x'.repeat(10_000) + 'END');
    expect(ring.text().length).toBe(100);
    expect(ring.text().endsWith('END')).toBe(true);
  });
});

describe('selectOutput', () => {
  const text = 'one\r\n\x1b[31mtwo error\x1b[0m\nthree\nfour error\n';
  it('greps on text without colour codes, then tails', () => {
    expect(selectOutput(text, {grep: /error/})).toBe('\x1b[31mtwo error\x1b[0m\nfour error\n');
    expect(selectOutput(text, {grep: /error/, tail: 1})).toBe('four error\n');
    expect(selectOutput(text, {tail: 2})).toBe('three\nfour error\n');
    expect(selectOutput(text, {tail: 0})).toBe('');
  });
});

describe('OutputRing.mark', () => {
  it('puts the marker on a line of its own after what the previous run printed', () => {
    const ring = new OutputRing();
    ring.write('last line without newline');
    ring.mark('restarted at 12:00:00 (run 2)');
    ring.write('first of run 2\r\n');
    expect(ring.text()).toBe('last line without newline\r\n── restarted at 12:00:00 (run 2) ──\r\nfirst of run 2\r\n');
    const empty = new OutputRing();
    empty.mark('restarted');
    expect(empty.text()).toBe('── restarted ──\r\n');
  });
});
