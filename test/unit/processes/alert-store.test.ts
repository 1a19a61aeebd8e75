import {describe, expect, it} from 'vitest';
import {AlertStore} from '../../../source/processes/alert-store.js';
import type {ScannedAlert} from '../../../source/incidents/types.js';

const alert = (message: string, extra: Partial<ScannedAlert> = {}): ScannedAlert => ({
  severity: 'error',
  category: 'TypeError',
  message,
  location: '/app/a.js:1:1',
  compile: false,
  raw: message,
  ...extra,
});

describe('AlertStore', () => {
  it('holds at most 500 entries, dropping the oldest', () => {
    const store = new AlertStore();
    for (let i = 0; i < 700; i++) store.add('web', alert(`failure ${i}`), i);
    expect(store.size).toBe(500);
    const messages = store.list().map((entry) => entry.message);
    expect(messages[0]).toBe('failure 200');
    expect(messages.at(-1)).toBe('failure 699');
  });

  it('counts a repeat instead of taking a slot, and keeps the latest time', () => {
    const store = new AlertStore();
    store.add('web', alert('same'), 1000);
    store.add('web', alert('other'), 1500);
    const again = store.add('web', alert('same'), 2000);
    expect(store.size).toBe(2);
    expect(again).toMatchObject({count: 2, firstSeen: 1000, lastSeen: 2000});
    expect(store.list().at(-1)!.message).toBe('same');
    // Another process with the same text is another entry.
    store.add('api', alert('same'), 2500);
    expect(store.size).toBe(3);
  });

  it('clears only that process compile errors on a build success', () => {
    const store = new AlertStore();
    store.add('web', alert("Type 'string' is not assignable", {category: 'TS2322', compile: true}));
    store.add('web', alert('runtime failure'));
    store.add('api', alert("Type 'x' is wrong", {category: 'TS2322', compile: true}));
    expect(store.clearCompileErrors('web')).toBe(1);
    expect(store.list().map((entry) => `${entry.processId}:${entry.category}`)).toEqual(['web:TypeError', 'api:TS2322']);
    // A fixed error that comes back counts from one again.
    expect(store.add('web', alert("Type 'string' is not assignable", {category: 'TS2322', compile: true})).count).toBe(1);
  });
});
