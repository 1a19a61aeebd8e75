import {mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {pathToFileURL} from 'node:url';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {unknownSubcommand} from '../../../source/cli/unknown-subcommand.js';

let dir: string;
let commands: URL;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'wb-commands-'));
  for (const file of ['proc/index.js', 'proc/list.js', 'proc/stop.js', 'agent/index.js', 'agent/perms/test.js']) {
    mkdirSync(join(dir, file, '..'), {recursive: true});
    writeFileSync(join(dir, file), '');
  }
  commands = pathToFileURL(`${dir}/`);
});
afterEach(() => rmSync(dir, {recursive: true, force: true}));

describe('unknownSubcommand', () => {
  it('names the close match of a typo', () => {
    expect(unknownSubcommand(commands, ['proc', 'lsit'])).toContain('Did you mean list?');
  });

  it('counts a nested group as a subcommand', () => {
    expect(unknownSubcommand(commands, ['agent', 'perms', 'test'])).toBeUndefined();
  });

  it('takes any other word after agent as the prompt of its default command', () => {
    expect(unknownSubcommand(commands, ['agent', 'hello'])).toBeUndefined();
    expect(unknownSubcommand(commands, ['agent', 'fix the failing test'])).toBeUndefined();
  });
});
