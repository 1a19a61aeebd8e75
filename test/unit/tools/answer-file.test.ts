import {mkdtempSync, readdirSync, readFileSync, rmSync, statSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterEach, beforeEach, describe, expect, it, vi} from 'vitest';
import {answersDirectory, fileIfTooLong, writeAnswerFile} from '../../../source/tools/answer-file.js';

let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'wb-answers-'));
  vi.stubEnv('WORKBENCH_HOME', home);
});
afterEach(() => {
  vi.unstubAllEnvs();
  rmSync(home, {recursive: true, force: true});
});

describe('answers too long for a tool answer (issue 8 item 11)', () => {
  it('writes the whole thing 0600 under WORKBENCH_HOME/answers only when the text is over the budget', () => {
    expect(fileIfTooLong('short', {budget: 100, kind: 'proxylog-app', whole: () => 'never'})).toBeUndefined();
    expect(fileIfTooLong('x'.repeat(1000), {kind: 'proxylog-app', whole: () => 'never'})).toBeUndefined();
    const file = fileIfTooLong('x'.repeat(101), {budget: 100, kind: 'proxylog-app', whole: () => '[1,2,3]'})!;
    expect(file.startsWith(join(home, 'answers', 'proxylog-app-'))).toBe(true);
    expect(readFileSync(file, 'utf8')).toBe('[1,2,3]');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(answersDirectory()).mode & 0o777).toBe(0o700);
  });

  it('keeps a file name safe whatever the kind, and keeps the newest 100 files', () => {
    const odd = writeAnswerFile('../../etc/passwd x', '{}');
    expect(odd.startsWith(join(home, 'answers', '_etc_passwd_x-'))).toBe(true);
    for (let index = 0; index < 105; index += 1) writeAnswerFile('many', String(index));
    expect(readdirSync(answersDirectory())).toHaveLength(100);
  });
});
