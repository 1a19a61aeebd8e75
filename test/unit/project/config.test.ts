import {mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {afterEach, describe, expect, it} from 'vitest';
import {isWorkbenchError} from '../../../source/core/errors.js';
import {autostartEntries, loadProjectConfig, parseProjectConfig} from '../../../source/project/config.js';

const fixtures = fileURLToPath(new URL('../../../fixtures/', import.meta.url));

/** The one error a malformed config gives, as `{code, message}`. */
function errorOf(text: string): {code: string; message: string} {
  try {
    parseProjectConfig(text);
  } catch (error) {
    if (!isWorkbenchError(error)) throw error;
    return {code: error.code, message: error.message};
  }
  throw new Error('expected parseProjectConfig to reject the config');
}

describe('parseProjectConfig: valid files', () => {
  it('reads the scripts and proxies blocks of the spec', () => {
    const config = parseProjectConfig(`scripts {
  dev {
    run "npm run dev"
    autostart true
  }
  test {
    run "npm test -- --watch"
  }
}
proxies {
  app {
    target "http://localhost:3000"
    autostart true
  }
}
`);
    expect(config).toEqual({
      scripts: [
        {name: 'dev', run: 'npm run dev', autostart: true},
        {name: 'test', run: 'npm test -- --watch', autostart: false},
      ],
      proxies: [{id: 'app', target: 'http://localhost:3000', autostart: true}],
    });
  });

  it('reads autostart as KDL 1 (true/false) and KDL 2 (#true/#false) booleans', () => {
    const config = parseProjectConfig(`scripts {
  a { run "x"; autostart false }
  b { run "y"; autostart #true }
  c { run "z"; autostart #false }
  d { run "w"; autostart true }
}`);
    expect(config.scripts.map((s) => [s.name, s.autostart])).toEqual([
      ['a', false],
      ['b', true],
      ['c', false],
      ['d', true],
    ]);
  });

  it('leaves the words true and null inside strings alone', () => {
    const config = parseProjectConfig('scripts {\n  check {\n    run "test true = true && echo null"\n  }\n}\n');
    expect(config.scripts[0]!.run).toBe('test true = true && echo null');
  });

  it('skips comments and slashdashed entries, and accepts an empty file', () => {
    const config = parseProjectConfig(`// the project's scripts
/* a block
   comment */
scripts {
  /-old {
    run "make old"
  }
  dev { run "vite" } // trailing
}
/-proxies {
  app { target "not even a url" }
}
`);
    expect(config).toEqual({scripts: [{name: 'dev', run: 'vite', autostart: false}], proxies: []});
    expect(parseProjectConfig('')).toEqual({scripts: [], proxies: []});
  });

  it('parses the demo project', () => {
    const demo = parseProjectConfig(readFileSync(join(fixtures, 'demo/.workbench.kdl'), 'utf8'));
    expect(demo.scripts.map((s) => s.name)).toEqual(['web', 'worker']);
    expect(demo.scripts.every((s) => s.autostart)).toBe(true);
    expect(demo.scripts.every((s) => s.run.startsWith('node '))).toBe(true);
  });
});

describe('parseProjectConfig: one error with the line of the problem', () => {
  it('names an unknown setting and the settings it expected', () => {
    expect(errorOf('scripts {\n  dev {\n    rn "npm run dev"\n  }\n}\n')).toEqual({
      code: 'config_invalid',
      message: '.workbench.kdl:3: scripts.dev: unknown setting "rn" (expected run, autostart)',
    });
  });

  it('names an unknown top-level block', () => {
    expect(errorOf('scripts {\n}\n\nproxy {\n  app { target "http://localhost:1" }\n}\n').message).toBe(
      '.workbench.kdl:4: unknown block "proxy" (expected scripts, proxies, gateway or agent)',
    );
  });

  it('reports a missing run or target on the entry line', () => {
    expect(errorOf('scripts {\n  dev {\n    autostart true\n  }\n}\n').message).toBe('.workbench.kdl:2: scripts.dev: missing run "<command>"');
    expect(errorOf('proxies {\n\n  app {\n  }\n}\n').message).toBe('.workbench.kdl:3: proxies.app: missing target "<URL>"');
  });

  it('rejects a value of the wrong type', () => {
    expect(errorOf('scripts {\n  dev {\n    run "vite"\n    autostart "yes"\n  }\n}\n').message).toBe('.workbench.kdl:4: scripts.dev.autostart: expected true or false, got "yes"');
    expect(errorOf('scripts {\n  dev {\n    run "vite"\n    autostart yes\n  }\n}\n').message).toBe('.workbench.kdl:4: scripts.dev.autostart: expected true or false, got "yes"');
    expect(errorOf('scripts {\n  dev {\n    run 3000\n  }\n}\n').message).toBe('.workbench.kdl:3: scripts.dev.run: expected a string, got 3000');
    expect(errorOf('scripts {\n  dev {\n    run "vite" "--host"\n  }\n}\n').message).toBe('.workbench.kdl:3: scripts.dev.run: expected one string, got 2 values');
    expect(errorOf('scripts {\n  dev {\n    run "vite"\n    autostart\n  }\n}\n').message).toBe('.workbench.kdl:4: scripts.dev.autostart: expected true or false, got nothing');
  });

  it('rejects a target that is not an http(s) URL', () => {
    expect(errorOf('proxies {\n  app {\n    autostart true\n    target "localhost:3000"\n  }\n}\n').message).toBe(
      '.workbench.kdl:4: proxies.app.target: expected an http:// or https:// URL, got "localhost:3000"',
    );
    expect(errorOf('proxies {\n  app {\n    target "ftp://example.com"\n  }\n}\n').message).toContain('.workbench.kdl:3:');
  });

  it('rejects duplicate names, also across two blocks of the same kind', () => {
    expect(errorOf('scripts {\n  dev { run "a" }\n  dev { run "b" }\n}\n').message).toBe('.workbench.kdl:3: scripts: duplicate name "dev" (first defined on line 2)');
    expect(errorOf('scripts {\n  dev { run "a" }\n}\nscripts {\n  dev { run "b" }\n}\n').message).toBe('.workbench.kdl:5: scripts: duplicate name "dev" (first defined on line 2)');
    expect(errorOf('scripts {\n  dev {\n    run "a"\n    run "b"\n  }\n}\n').message).toBe('.workbench.kdl:4: scripts.dev: run is set twice (first on line 3)');
  });

  it('rejects values on an entry instead of a settings block', () => {
    expect(errorOf('scripts {\n  dev "npm run dev"\n}\n').message).toBe('.workbench.kdl:2: scripts.dev: settings go inside a block, e.g. dev { run "..." }');
  });

  it('finds the line of an entry after slashdashed and commented ones', () => {
    // The slashdashed copy has the same name: a text search alone would point at line 3.
    const text = 'scripts {\n  /-web {\n    rn "x"\n  }\n  // web { rn "y" }\n  web {\n    rn "z"\n  }\n}\n';
    expect(errorOf(text).message).toBe('.workbench.kdl:7: scripts.web: unknown setting "rn" (expected run, autostart)');
  });

  it('counts lines the same in a file with CRLF line ends', () => {
    const text = 'scripts {\r\n  dev {\r\n    run "vite"\r\n    autostart 1\r\n  }\r\n}\r\n';
    expect(errorOf(text).message).toBe('.workbench.kdl:4: scripts.dev.autostart: expected true or false, got 1');
  });

  it('reports KDL syntax errors with their line and no parser dump', () => {
    const unclosedString = errorOf('scripts {\n  dev {\n    run "npm run dev\n  }\n}\n');
    expect(unclosedString).toEqual({
      code: 'config_invalid',
      message: '.workbench.kdl:3: string is not closed (missing " before the end of the line)',
    });
    expect(errorOf('scripts {\n  dev {\n    run "vite"\n  }\n').message).toBe('.workbench.kdl:1: block { opened here is never closed (missing })');
    expect(errorOf('scripts {\n  dev { run "vite" }\n}\n}\n').message).toBe('.workbench.kdl:4: unexpected } (no block is open here)');
    expect(errorOf('scripts {\n  dev {\n    run = "vite"\n  }\n}\n').message).toBe('.workbench.kdl:3: syntax error: unexpected "="');
    expect(errorOf('/* notes\n\nscripts {}\n').message).toBe('.workbench.kdl:1: comment /* is never closed (missing */)');
  });

  it('names the line that opened what is left open, not the end of the file', () => {
    const tail = '\n// more\n'.repeat(20);
    expect(errorOf(`scripts {\n  a {\n    run "x"\n  }\n}\nproxies {\n  app {\n    target "http://localhost:3000\n  }\n}\n${tail}`).message).toBe(
      '.workbench.kdl:8: string is not closed (missing " before the end of the line)',
    );
    expect(errorOf(`scripts {\n  a { run "x"; }\n}\nproxies {\n  app { target "http://localhost:3000"; }\n${tail}`).message).toBe(
      '.workbench.kdl:4: block { opened here is never closed (missing })',
    );
  });

  it('rewrites only the KDL 1 keywords the parser refuses: not words in comments, raw strings or names', () => {
    const config = parseProjectConfig(
      '// autostart true\nscripts {\n  /* null */ dev {\n    run #"echo true null"#\n    autostart true\n  }\n  "true" { run "t"; autostart #false; }\n}\n',
    );
    expect(config.scripts).toEqual([
      {name: 'dev', run: 'echo true null', autostart: true},
      {name: 'true', run: 't', autostart: false},
    ]);
    expect(errorOf('scripts {\n  dev {\n    run null\n  }\n}\n').message).toBe('.workbench.kdl:3: scripts.dev.run: expected a string, got null');
  });

  it('puts the file name given into the message and the details', () => {
    try {
      parseProjectConfig('nope {}\n', '/srv/app/.workbench.kdl');
      expect.unreachable();
    } catch (error) {
      expect(isWorkbenchError(error) && error.message).toBe('/srv/app/.workbench.kdl:1: unknown block "nope" (expected scripts, proxies, gateway or agent)');
      expect(isWorkbenchError(error) && error.details).toEqual({file: '/srv/app/.workbench.kdl', line: 1});
    }
  });
});

describe('autostartEntries', () => {
  it('lists autostart scripts, then autostart proxies', () => {
    const config = parseProjectConfig(`proxies {
  app { target "http://localhost:3000"; autostart true }
  admin { target "https://localhost:8443" }
}
scripts {
  dev { run "vite"; autostart true }
  lint { run "eslint ." }
}`);
    expect(autostartEntries(config)).toEqual([
      {kind: 'script', name: 'dev', run: 'vite'},
      {kind: 'proxy', id: 'app', target: 'http://localhost:3000'},
    ]);
  });
});

describe('loadProjectConfig', () => {
  let dir = '';
  afterEach(() => dir && rmSync(dir, {recursive: true, force: true}));

  it('returns null without a .workbench.kdl and the config with one', async () => {
    dir = mkdtempSync(join(tmpdir(), 'workbench-config-'));
    expect(await loadProjectConfig(dir)).toBeNull();
    writeFileSync(join(dir, '.workbench.kdl'), 'scripts {\n  dev {\n    run "vite"\n    autostart true\n  }\n}\n');
    expect(await loadProjectConfig(dir)).toEqual({scripts: [{name: 'dev', run: 'vite', autostart: true}], proxies: []});
  });

  it('names the full path of a malformed file, and of one it cannot read', async () => {
    dir = mkdtempSync(join(tmpdir(), 'workbench-config-'));
    writeFileSync(join(dir, '.workbench.kdl'), 'scripts {\n  dev { run "vite"; autostart "no" }\n}\n');
    await expect(loadProjectConfig(dir)).rejects.toThrow(`${join(dir, '.workbench.kdl')}:2: scripts.dev.autostart: expected true or false, got "no"`);
    rmSync(join(dir, '.workbench.kdl'));
    mkdirSync(join(dir, '.workbench.kdl'));
    await expect(loadProjectConfig(dir)).rejects.toMatchObject({code: 'config_invalid', message: `${join(dir, '.workbench.kdl')}: cannot be read (EISDIR)`});
  });
});
