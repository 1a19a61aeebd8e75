import {readFileSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, it, vi} from 'vitest';
import {repoRoot} from '../../helpers/cli.js';
import {packageMissing, packageProblem, skipFor, systemPackages} from '../../helpers/system-package.js';

// The Debian packages the tests run are listed once (test/system-packages.txt): the README's
// set-up line names each of them, .ci/run installs from that list, and a test asks for its
// package through requirePackage, which knows no other.

describe('the system packages', () => {
  it("are the README's one apt-get line, neither more nor fewer", () => {
    const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
    const lines = readme.split('\n').filter((line) => /apt-get install .*python3-prometheus-client/.test(line));
    expect(lines).toHaveLength(1);
    const named = lines[0]!
      .replace(/^.*apt-get install\s+/, '')
      .trim()
      .split(/\s+/);
    expect(named.sort()).toEqual(
      systemPackages()
        .map((entry) => entry.name)
        .sort(),
    );
  });

  it('are what .ci/run installs', () => {
    expect(readFileSync(join(repoRoot, '.ci/run'), 'utf8')).toContain('done < test/system-packages.txt');
  });

  it('each say how to tell they are installed: a program by its absolute path, a module of the system Python', () => {
    for (const entry of systemPackages()) {
      if ('binary' in entry.check) expect(entry.check.binary, entry.name).toMatch(/^\/usr\/s?bin\/[\w+.-]+$/);
      else expect(entry.check.python, entry.name).toMatch(/^\w+$/);
    }
  });

  it('a package the list does not name is a mistake in the test, not a skip', () => {
    expect(() => packageMissing('cowsay')).toThrow('cowsay is not in test/system-packages.txt');
  });

  it('a program or a module that is not there is named as such', () => {
    expect(packageProblem({name: 'tmux', check: {binary: '/nonexistent/tmux'}})).toBe('no /nonexistent/tmux');
    expect(packageProblem({name: 'tmux', check: {binary: '/usr'}})).toBe('/usr is not a file');
    expect(packageProblem({name: 'python3-x', check: {python: 'no_such_module_of_workbench'}})).toBe('/usr/bin/python3 cannot import no_such_module_of_workbench');
    expect(packageProblem({name: 'python3', check: {binary: process.execPath}})).toBeNull();
  });

  it('a missing one is skipped loudly with the apt-get line, and fails the file when services are required', () => {
    vi.stubEnv('WORKBENCH_REQUIRE_SERVICES', '');
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      const reason = skipFor('newsboat', 'no /usr/bin/newsboat', 'the real-client test');
      expect(reason).toBe('SKIPPED the real-client test: newsboat is not installed (no /usr/bin/newsboat); apt-get install newsboat');
      expect(warn).toHaveBeenCalledWith(`\n!!! ${reason} !!!\n`);
      vi.stubEnv('WORKBENCH_REQUIRE_SERVICES', '1');
      expect(() => skipFor('newsboat', 'no /usr/bin/newsboat', 'the real-client test')).toThrow(`${reason} — and WORKBENCH_REQUIRE_SERVICES is set`);
    } finally {
      warn.mockRestore();
      vi.unstubAllEnvs();
    }
  });
});
