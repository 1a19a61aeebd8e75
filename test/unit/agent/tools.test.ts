import {chmodSync, existsSync, lstatSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {editFileTool, MAX_EDIT_BYTES} from '../../../source/agent/tools/edit-file.js';
import {readFileTool} from '../../../source/agent/tools/read-file.js';
import {CappedOutput, OUTPUT_HEAD_BYTES, OUTPUT_TAIL_BYTES, runShellTool} from '../../../source/agent/tools/run-shell.js';
import type {AgentToolContext} from '../../../source/agent/types.js';

let dir: string;
let context: AgentToolContext;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'wb-agent-tools-'));
  context = {cwd: dir};
});
afterEach(() => rmSync(dir, {recursive: true, force: true}));

const failure = async (promise: Promise<unknown>): Promise<string> => {
  try {
    await promise;
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected a failure');
};

describe('read_file', () => {
  it('reads a file relative to the workspace, numbered, and says how many lines', async () => {
    writeFileSync(join(dir, 'a.ts'), 'one\ntwo\nthree\n');
    const outcome = await readFileTool.run({path: 'a.ts'}, context);
    expect(outcome.content).toBe('a.ts: 3 lines\n     1\tone\n     2\ttwo\n     3\tthree');
    expect(outcome.row).toEqual({tool: 'read_file', summary: 'read a.ts (3 lines)'});
    expect(readFileTool.argument({path: './a.ts'})).toBe('a.ts');
    expect(readFileTool.argument({path: join(dir, 'src/../a.ts')}, context)).toBe('a.ts');
  });

  it('reads a window with offset and limit and says how to read on', async () => {
    writeFileSync(join(dir, 'long.txt'), Array.from({length: 50}, (_, index) => `line ${index + 1}`).join('\n'));
    const outcome = await readFileTool.run({path: 'long.txt', offset: 10, limit: 5}, context);
    expect(outcome.content.split('\n')[0]).toBe('long.txt: lines 10-14 of 50 (read on with offset=15)');
    expect(outcome.content).toContain('    14\tline 14');
    expect(outcome.row.summary).toBe('read long.txt (10-14 of 50 lines)');
    expect(await failure(readFileTool.run({path: 'long.txt', offset: 99}, context))).toBe('long.txt has 50 lines; offset 99 is past the end');
  });

  it('refuses a binary file', async () => {
    writeFileSync(join(dir, 'image.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 13]));
    expect(await failure(readFileTool.run({path: 'image.png'}, context))).toBe('image.png is a binary file (8 bytes); read_file reads text only');
  });

  it('caps a huge file to a window within the budget, streaming it', async () => {
    const line = 'x'.repeat(99);
    writeFileSync(join(dir, 'huge.log'), `${line}\n`.repeat(200_000)); // 20 MB
    const outcome = await readFileTool.run({path: 'huge.log'}, context);
    expect(outcome.content.length).toBeLessThan(70_000);
    expect(outcome.content.split('\n')[0]).toMatch(/^huge\.log: lines 1-\d+ of 200000 \(read on with offset=\d+\)$/);
  });

  it('cuts a very long line (a minified bundle) and says so', async () => {
    writeFileSync(join(dir, 'bundle.js'), 'a'.repeat(100_000));
    const outcome = await readFileTool.run({path: 'bundle.js'}, context);
    expect(outcome.content).toContain('[line cut: 100,000 characters]');
    expect(outcome.content.length).toBeLessThan(3000);
  });

  it('answers a missing file, a directory and bad arguments with a sentence', async () => {
    expect(await failure(readFileTool.run({path: 'nope.ts'}, context))).toBe('nope.ts: no such file');
    expect(await failure(readFileTool.run({path: '.'}, context))).toContain('is a directory');
    expect(await failure(readFileTool.run({path: 3}, context))).toContain('read_file: bad arguments — path:');
    expect(await failure(readFileTool.run({}, context))).toContain('path:');
    expect(await failure(readFileTool.run({path: 'a', offset: 0}, context))).toContain('offset:');
    expect(await failure(readFileTool.run({path: 'a', extra: 1}, context))).toContain('extra');
    expect(await failure(readFileTool.run('{"path": "a.ts"', context))).toContain('were not a JSON object');
  });
});

describe('edit_file', () => {
  it('replaces a string that occurs once, writes atomically, keeps the mode, and shows a diff', async () => {
    const file = join(dir, 'src', 'app.ts');
    await editFileTool.run({path: 'src/app.ts', old_string: '', new_string: 'const a = 1;\nconst b = 2;\n'}, context);
    chmodSync(file, 0o640);
    const outcome = await editFileTool.run({path: 'src/app.ts', old_string: 'const b = 2;', new_string: 'const b = 3;\nconst c = 4;'}, context);
    expect(readFileSync(file, 'utf8')).toBe('const a = 1;\nconst b = 3;\nconst c = 4;\n');
    expect(statSync(file).mode & 0o777).toBe(0o640);
    expect(outcome.content).toBe('edited src/app.ts (+2 -1 lines)');
    expect(outcome.row.summary).toBe('edit src/app.ts (+2 -1)');
    expect(outcome.row.detail).toContain('--- src/app.ts');
    expect(outcome.row.detail).toContain('-const b = 2;\n+const b = 3;\n+const c = 4;');
  });

  it('creates a new file and its folders with an empty old_string', async () => {
    const outcome = await editFileTool.run({path: 'deep/er/new.md', old_string: '', new_string: '# Title\n\ntext\n'}, context);
    expect(readFileSync(join(dir, 'deep/er/new.md'), 'utf8')).toBe('# Title\n\ntext\n');
    expect(outcome.row.summary).toBe('create deep/er/new.md (3 lines)');
    expect(outcome.row.detail).toContain('+# Title');
  });

  it('a missing old string is an error naming 0 matches; nothing is written', async () => {
    writeFileSync(join(dir, 'a.txt'), 'hello\n');
    expect(await failure(editFileTool.run({path: 'a.txt', old_string: 'bye', new_string: 'x'}, context))).toBe(
      'a.txt: old_string was not found (0 matches); read the file again and quote the text exactly, whitespace included',
    );
    expect(readFileSync(join(dir, 'a.txt'), 'utf8')).toBe('hello\n');
  });

  it('an ambiguous old string is an error naming how many matches', async () => {
    writeFileSync(join(dir, 'a.txt'), 'x = 1\nx = 1\nx = 1\n');
    expect(await failure(editFileTool.run({path: 'a.txt', old_string: 'x = 1', new_string: 'x = 2'}, context))).toBe(
      'a.txt: old_string is ambiguous (3 matches); include more surrounding lines so it occurs exactly once',
    );
  });

  it('refuses to overwrite an existing file through create, an edit of a missing file, and a no-op', async () => {
    writeFileSync(join(dir, 'a.txt'), 'hello\n');
    expect(await failure(editFileTool.run({path: 'a.txt', old_string: '', new_string: 'x'}, context))).toContain('a.txt already exists');
    expect(await failure(editFileTool.run({path: 'b.txt', old_string: 'x', new_string: 'y'}, context))).toContain('b.txt: no such file; to create it, give an empty old_string');
    expect(await failure(editFileTool.run({path: 'a.txt', old_string: 'hello', new_string: 'hello'}, context))).toContain('nothing to change');
    expect(await failure(editFileTool.run({path: 'a.txt', old_string: 'hello'}, context))).toContain('new_string');
  });

  it('edits a link where it points, keeping the link; refuses binary and oversized files', async () => {
    writeFileSync(join(dir, 'real.txt'), 'one\n');
    symlinkSync('real.txt', join(dir, 'link.txt'));
    const outcome = await editFileTool.run({path: 'link.txt', old_string: 'one', new_string: 'two'}, context);
    expect(outcome.row.summary).toBe('edit link.txt (+1 -1)');
    expect(lstatSync(join(dir, 'link.txt')).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(dir, 'real.txt'), 'utf8')).toBe('two\n');
    writeFileSync(join(dir, 'blob.bin'), Buffer.from([1, 0, 2]));
    expect(await failure(editFileTool.run({path: 'blob.bin', old_string: '\u0001', new_string: 'x'}, context))).toBe('blob.bin is a binary file; edit_file changes text only');
    writeFileSync(join(dir, 'big.txt'), Buffer.alloc(MAX_EDIT_BYTES + 1, 'a'));
    expect(await failure(editFileTool.run({path: 'big.txt', old_string: 'a', new_string: 'b'}, context))).toContain('more than edit_file takes');
  });

  it("in a CRLF file, the model's line breaks (as read_file showed them) mean CRLF", async () => {
    writeFileSync(join(dir, 'win.txt'), 'one\r\ntwo\r\nthree\r\n');
    await editFileTool.run({path: 'win.txt', old_string: 'one\ntwo', new_string: 'one\n2\nmore'}, context);
    expect(readFileSync(join(dir, 'win.txt'), 'utf8')).toBe('one\r\n2\r\nmore\r\nthree\r\n');
  });

  it('preview shows the diff before anything is written', async () => {
    writeFileSync(join(dir, 'a.txt'), 'hello\n');
    const diff = await editFileTool.preview!({path: 'a.txt', old_string: 'hello', new_string: 'goodbye'}, context);
    expect(diff).toContain('-hello\n+goodbye');
    expect(readFileSync(join(dir, 'a.txt'), 'utf8')).toBe('hello\n');
    expect(editFileTool.argument({path: 'a.txt', old_string: 'hello', new_string: 'x'})).toBe('a.txt');
  });
});

describe('run_shell', () => {
  it('runs in the workspace and reports the exit code, stdout and stderr together', async () => {
    const outcome = await runShellTool.run({command: 'pwd; echo out; echo err >&2; exit 3'}, context);
    expect(outcome.content).toBe(`${dir}\nout\nerr\n\n[exit 3]`);
    expect(outcome.row).toMatchObject({tool: 'run_shell', summary: `shell pwd; echo out; echo err >&2; exit 3 → exit 3`, exitCode: 3});
    expect(outcome.isError).toBe(false);
  });

  it('a command that hangs is stopped at the timeout with everything it started', async () => {
    const pidFile = join(dir, 'child.pid');
    const outcome = await runShellTool.run({command: `sleep 300 & echo $! > ${pidFile}; echo started; wait`, timeout_seconds: 0.5}, context);
    expect(outcome.row.summary).toMatch(/→ timed out after 0\.5 s$/);
    expect(outcome.row.error).toBe('timed out after 0.5 s');
    expect(outcome.isError).toBe(true);
    expect(outcome.content).toContain('started');
    const child = Number(readFileSync(pidFile, 'utf8'));
    // The background sleep was in the command's process group, so it is gone too.
    await expect.poll(() => alive(child), {timeout: 5000}).toBe(false);
  });

  it('50 MB of output is capped to head and tail with the cut counted, memory bounded', async () => {
    const outcome = await runShellTool.run({command: `echo first; head -c 52428800 /dev/zero | tr '\\0' 'y'; echo; echo last`}, context);
    expect(outcome.row.exitCode).toBe(0);
    expect(outcome.content.length).toBeLessThan(OUTPUT_HEAD_BYTES + OUTPUT_TAIL_BYTES + 200);
    expect(outcome.content.startsWith('first\nyyy')).toBe(true);
    expect(outcome.content).toMatch(/\[… [\d,]+ bytes cut from the middle of 52,428,8\d\d bytes of output …\]/);
    expect(outcome.content.endsWith('y\nlast\n\n[exit 0]')).toBe(true);
  });

  it('the output cap holds a bounded number of bytes however much goes through', () => {
    const output = new CappedOutput(OUTPUT_HEAD_BYTES, OUTPUT_TAIL_BYTES);
    const chunk = Buffer.alloc(65_536, 'y');
    let most = 0;
    for (let sent = 0; sent < 50 * 1024 * 1024; sent += chunk.length) {
      output.add(chunk);
      most = Math.max(most, output.retained);
    }
    output.add(Buffer.from('\nthe end'));
    expect(most).toBeLessThanOrEqual(OUTPUT_HEAD_BYTES + 2 * OUTPUT_TAIL_BYTES + chunk.length);
    expect(output.total).toBe(50 * 1024 * 1024 + 8);
    const text = output.text();
    expect(text.endsWith('y\nthe end')).toBe(true);
    expect(text).toContain('[… 52,398,808 bytes cut from the middle of 52,428,808 bytes of output …]');
  });

  it('strips control characters from the row, not from what the model gets', async () => {
    const outcome = await runShellTool.run({command: `printf 'a\\033]0;title\\007b\\n'`}, context);
    expect(outcome.row.detail).toBe('ab\n');
    expect(outcome.content).toContain('\u001b]0;title');
  });

  it('refuses bad arguments: no command, a timeout past the most', async () => {
    expect(await failure(runShellTool.run({}, context))).toContain('command:');
    expect(await failure(runShellTool.run({command: 'ls', timeout_seconds: 10_000}, context))).toContain('timeout_seconds:');
    expect(await failure(runShellTool.run({command: 'ls', timeout_seconds: 'soon'}, context))).toContain('timeout_seconds:');
  });

  it('a cancelled turn stops the command', async () => {
    const controller = new AbortController();
    const running = runShellTool.run({command: 'echo go; sleep 300'}, {cwd: dir, signal: controller.signal});
    setTimeout(() => controller.abort(), 200);
    const outcome = await running;
    expect(outcome.row.summary).toBe('shell echo go; sleep 300 → cancelled');
  });

  it('a missing workspace is an answer, not a crash', async () => {
    const outcome = await runShellTool.run({command: 'ls'}, {cwd: join(dir, 'gone')});
    expect(outcome.isError).toBe(true);
    expect(outcome.row.summary).toBe('shell ls → could not run');
    expect(existsSync(join(dir, 'gone'))).toBe(false);
  });
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
