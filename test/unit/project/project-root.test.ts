import {mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {makeKey, parseKey, shortId} from '../../../source/processes/project-key.js';
import {projectRoot} from '../../../source/project/project-root.js';

let dir: string;

beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'wb-root-')));
});

afterEach(() => {
  rmSync(dir, {recursive: true, force: true});
});

describe('the project a folder belongs to', () => {
  it('is the nearest folder up with a project file, through symlinks', () => {
    const app = join(dir, 'app');
    mkdirSync(join(app, 'src', 'deep'), {recursive: true});
    writeFileSync(join(app, '.workbench.kdl'), '');
    symlinkSync(app, join(dir, 'link'));
    expect(projectRoot(join(app, 'src', 'deep'))).toBe(app);
    expect(projectRoot(join(dir, 'link', 'src'))).toBe(app);
    expect(projectRoot(join(dir, 'link'))).toBe(app);
  });

  it('is the folder itself when no folder up holds a project file', () => {
    const loose = join(dir, 'loose');
    mkdirSync(loose);
    expect(projectRoot(loose)).toBe(loose);
  });

  it('keeps the path of a removed folder (its processes are known by it)', () => {
    expect(projectRoot(join(dir, 'gone'))).toBe(join(dir, 'gone'));
  });
});

describe('process keys', () => {
  it('split at the last #, so a project path may hold one', () => {
    const key = makeKey('/work/a#b', 'web');
    expect(key).toBe('/work/a#b#web');
    expect(parseKey(key)).toEqual({project: '/work/a#b', id: 'web'});
    expect(shortId(key)).toBe('web');
  });

  it('of the nameless project are bare ids', () => {
    expect(makeKey('', 'web')).toBe('web');
    expect(parseKey('web')).toEqual({project: '', id: 'web'});
  });
});
