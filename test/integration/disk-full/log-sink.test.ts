// The LogSink every server and the daemon log through, on a real 3 MB tmpfs: a full disk drops
// lines and counts them without throwing, the line the disk took only part of is cut off again
// (the file holds whole lines), the failing spell is said once, and the file takes lines again —
// the first saying how many were lost — as soon as there is room.
import {readFileSync} from 'node:fs';
import {join} from 'node:path';
import {afterAll, describe, expect, it} from 'vitest';
import {LogSink} from '../../../source/core/log-sink.js';
import {mountSmallDisk, type SmallDisk} from './small-disk.js';

const disk = mountSmallDisk('the log sink');

describe.skipIf(typeof disk === 'string')('a LogSink on a disk that fills up', () => {
  const small = disk as SmallDisk;
  afterAll(() => small.unmount());

  it('drops and counts lines while full, keeps only whole lines, and writes again once there is room', () => {
    const path = join(small.dir, 'logs', 'test.log');
    const spells: string[] = [];
    const sink = LogSink.open(path, {onDropping: (reason) => spells.push(reason), gapLine: (dropped, reason) => `gap ${dropped} (${reason})\n`});
    const line = (index: number) => `line ${index} ${'x'.repeat(1000)}\n`;
    sink.write(line(0));
    small.fill();
    // The log's last page has room for a few lines; a line it takes only part of is taken back.
    let index = 1;
    for (; index < 100 && sink.dropped === 0; index++) expect(sink.write(line(index))).toBe(true);
    expect(sink.dropped).toBe(1);
    const whole = readFileSync(path, 'utf8');
    expect(whole.endsWith('\n')).toBe(true);
    const written = whole.split('\n').slice(0, -1);
    expect(written).toEqual(written.map((_, at) => line(at).slice(0, -1)));
    for (let more = 0; more < 5; more++) sink.write(line(index++));
    // Several lines in one write (the front's counted log) count as several.
    sink.write(`${'a'.repeat(1000)}\n${'b'.repeat(1000)}\n`);
    expect(sink.dropped).toBe(8);
    expect(spells).toEqual(['the disk is full']);

    small.free();
    sink.write('back\n');
    expect(sink.dropped).toBe(8);
    expect(readFileSync(path, 'utf8')).toBe(`${whole}gap 8 (the disk is full)\nback\n`);
    sink.end();
    // Ended: later lines are ignored, not thrown.
    expect(sink.write('late\n')).toBe(true);
    expect(readFileSync(path, 'utf8').endsWith('back\n')).toBe(true);
  });
});
