import {describe, expect, it} from 'vitest';
import {MAX_READ_MARKS, ReadMarks} from '../../../source/incidents/seen.js';

describe('inbox read marks', () => {
  it('keeps an incident read until it recurs after the mark', () => {
    const marks = new ReadMarks();
    const incident = {id: 'a1', last_seen: '2026-11-23T10:00:00.000Z'};
    expect(marks.isUnread(incident)).toBe(true);
    expect(marks.mark([incident])).toBe(1);
    expect(marks.isUnread(incident)).toBe(false);
    expect(marks.mark([incident])).toBe(0);
    expect(marks.isUnread({...incident, last_seen: '2026-11-23T10:00:05.000Z'})).toBe(true);
  });

  it('forgets the oldest marks beyond its bound', () => {
    const marks = new ReadMarks();
    marks.mark(Array.from({length: MAX_READ_MARKS + 10}, (_, index) => ({id: `i${index}`, last_seen: 't'})));
    expect(marks.list()).toHaveLength(MAX_READ_MARKS);
    expect(marks.isUnread({id: 'i0', last_seen: 't'})).toBe(true);
    expect(marks.isUnread({id: `i${MAX_READ_MARKS + 9}`, last_seen: 't'})).toBe(false);
  });
});
