import {join} from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {signIn} from '../../../source/feeds/greader/auth.js';
import {openStore} from '../../../source/feeds/store/index.js';
import {expectOneLineFailure, makeSandbox, runCli, type Sandbox} from '../../helpers/cli.js';

// `workbench reader password`: the API password Google Reader clients sign in with.

let sandbox: Sandbox;
beforeAll(() => {
  sandbox = makeSandbox('wb-reader-password-');
});
afterAll(async () => {
  await sandbox?.cleanup();
});

const cli = (args: string[], input?: string) => runCli(args, {env: sandbox.env, timeoutMs: 30_000, input});

async function canSignIn(db: string, user: string, password: string): Promise<boolean> {
  const store = await openStore(db);
  try {
    return (await signIn(store.db, user, password)) !== null;
  } finally {
    await store.close();
  }
}

describe('workbench reader password', () => {
  it('takes one line from stdin, or makes one with --generate and prints it once', async () => {
    const db = join(sandbox.dir, 'reader.sqlite');
    const piped = await cli(['reader', 'password', '--user', 'ada', '--db', db], 'a long enough password\n');
    expect(piped.code, piped.stderr).toBe(0);
    expect(piped.stdout).toBe('');
    expect(piped.stderr).toMatch(/API password set for ada; clients signed in before must sign in again/);
    expect(await canSignIn(db, 'ada', 'a long enough password')).toBe(true);

    const generated = await cli(['reader', 'password', '--user', 'ada', '--generate', '--db', db]);
    const password = generated.stdout.trim();
    expect(password).toMatch(/^[\w-]{22}$/);
    expect(await canSignIn(db, 'ada', password)).toBe(true);
    expect(await canSignIn(db, 'ada', 'a long enough password')).toBe(false);
  });

  it.each([
    [['--user', 'ada'], '\n', /no password given/],
    [['--user', 'ada'], 'short\n', /at least 8 characters/],
    [['--user', 'a b'], 'a long enough password\n', /user name takes letters/],
  ])('refuses %j with stdin %j in one line', async (args, input, message) => {
    expectOneLineFailure(await cli(['reader', 'password', ...args, '--db', join(sandbox.dir, 'other.sqlite')], input), message);
  });

  it('names its settings when called alone', async () => {
    const result = await cli(['reader']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/workbench reader password/);
  });
});
