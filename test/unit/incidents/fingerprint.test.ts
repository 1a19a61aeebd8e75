import {describe, expect, it} from 'vitest';
import {fingerprintMessage} from '../../../source/incidents/fingerprint.js';

describe('fingerprintMessage (Sentry-style masking)', () => {
  it.each([
    ['invoice 18: total is "012.50"', 'invoice <int>: total is <quoted_str>'],
    ['invoice 66: total is "013.75"', 'invoice <int>: total is <quoted_str>'],
    ['connect ECONNREFUSED 127.0.0.1:51234', 'connect ECONNREFUSED <ip>:<int>'],
    ['job 24 failed after 3 retries', 'job <int> failed after <int> retries'],
    ["Cannot read properties of undefined (reading 'id')", 'Cannot read properties of undefined (reading <quoted_str>)'],
    ["TS2322 can't find it, don't", "TS2322 can't find it, don't"],
    ['at /src/a.ts:12:5', 'at /src/a.ts:<int>:<int>'],
    ['request 7c1811ed-e98f-4c9c-a9f9-58c757ff494f failed', 'request <uuid> failed'],
    ['commit deadbeef12 and 0x1f', 'commit <hex> and <hex>'],
    ['took 1.5s and 312ms, file.v2.ts utf8', 'took <float>s and <int>ms, file.v2.ts utf8'],
  ])('%s → %s', (message, expected) => {
    expect(fingerprintMessage(message)).toBe(expected);
  });
});
