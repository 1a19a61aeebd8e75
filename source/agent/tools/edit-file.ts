/**
 * `edit_file`: an exact-string replacement that must match exactly once (the shape Claude Code and
 * aider settled on: the model quotes what it changes, so a stale view of the file fails loudly
 * instead of editing the wrong place), or, with an empty old_string, a new file. The row carries
 * the unified diff; `preview` computes the same diff before anything is written, so what the user
 * approves is what happens. Writes go to a temp name and are renamed over the file.
 */
import {lstat, mkdir, readFile, realpath} from 'node:fs/promises';
import {dirname} from 'node:path';
import {createPatch, structuredPatch} from 'diff';
import {z} from 'zod';
import {writeFileAtomic} from '../../core/atomic-write.js';
import {WorkbenchError} from '../../core/errors.js';
import {toTerminalLine, toTerminalText} from '../../text/terminal-safe.js';
import type {AgentTool, AgentToolContext} from '../types.js';
import {resolveToolPath, rulePath} from './paths.js';
import {jsonSchemaOf, parseToolInput} from './tool-input.js';

const input = z.strictObject({
  path: z.string().min(1).describe('File to change or create, relative to the workspace'),
  old_string: z.string().describe('Exact text to replace, occurring exactly once in the file (include surrounding lines to make it unique); empty to create a new file'),
  new_string: z.string().describe('The replacement text (the whole content for a new file)'),
});
type EditInput = z.output<typeof input>;

/** Larger files are changed with run_shell: the whole file is held (twice) to replace one string. */
export const MAX_EDIT_BYTES = 10 * 1024 * 1024;

/** What an edit will do, computed without writing. */
interface PlannedEdit {
  absolute: string;
  shown: string;
  before: string;
  after: string;
  created: boolean;
  mode?: number;
}

export const editFileTool: AgentTool = {
  name: 'edit_file',
  description:
    'Change a file by replacing old_string with new_string. old_string must occur exactly once, character for character (whitespace too); quote enough lines to make it unique. To create a new file, give an empty old_string and the content as new_string.',
  inputSchema: jsonSchemaOf(input),
  permission: 'edit',
  safeByDefault: false,
  argument(raw, context) {
    return rulePath(parseToolInput('edit_file', input, raw).path, context?.cwd);
  },
  async preview(raw, context) {
    const plan = await planEdit(parseToolInput('edit_file', input, raw), context);
    return unifiedDiff(plan);
  },
  async run(raw, context) {
    const plan = await planEdit(parseToolInput('edit_file', input, raw), context);
    if (plan.created) await mkdir(dirname(plan.absolute), {recursive: true});
    // 0o666 less the umask for a new file, as an editor would; an existing file keeps its mode.
    writeFileAtomic(plan.absolute, plan.after, {mode: plan.mode ?? 0o666});
    // The file's own bytes may hold escape sequences: the row is for a terminal.
    const detail = toTerminalText(unifiedDiff(plan));
    if (plan.created) {
      const lines = countLines(plan.after);
      const counted = `${lines} line${lines === 1 ? '' : 's'}`;
      return {content: `created ${plan.shown} (${counted})`, isError: false, row: {tool: 'edit_file', summary: `create ${toTerminalLine(plan.shown)} (${counted})`, detail}};
    }
    const {added, removed} = changeCounts(plan);
    return {
      content: `edited ${plan.shown} (+${added} -${removed} lines)`,
      isError: false,
      row: {tool: 'edit_file', summary: `edit ${toTerminalLine(plan.shown)} (+${added} -${removed})`, detail},
    };
  },
};

async function planEdit(args: EditInput, context: AgentToolContext): Promise<PlannedEdit> {
  const {absolute, shown} = resolveToolPath(context.cwd, args.path);
  const info = await lstat(absolute).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null;
    throw new WorkbenchError('invalid_argument', `${shown}: cannot be read (${error.code ?? error.message})`);
  });
  if (!info) {
    if (args.old_string !== '') throw new WorkbenchError('not_found', `${shown}: no such file; to create it, give an empty old_string and the content as new_string`);
    return {absolute, shown, before: '', after: args.new_string, created: true};
  }
  // A link is edited where it points (the rename would otherwise replace the link with a file).
  if (info.isSymbolicLink()) {
    const target = await realpath(absolute);
    return planEdit({...args, path: target}, context).then((plan) => ({...plan, shown}));
  }
  if (info.isDirectory()) throw new WorkbenchError('invalid_argument', `${shown} is a directory, not a file`);
  if (info.size > MAX_EDIT_BYTES) {
    throw new WorkbenchError(
      'payload_too_large',
      `${shown} is ${info.size.toLocaleString('en')} bytes, more than edit_file takes (${MAX_EDIT_BYTES.toLocaleString('en')}); change it with run_shell (sed, a script)`,
    );
  }
  const before = await readFile(absolute, 'utf8');
  if (before.includes('\0')) throw new WorkbenchError('invalid_argument', `${shown} is a binary file; edit_file changes text only`);
  const mode = info.mode & 0o777;
  if (args.old_string === '') {
    if (before !== '') throw new WorkbenchError('conflict', `${shown} already exists; to change it, give the exact text to replace as old_string`);
    return {absolute, shown, before, after: args.new_string, created: false, mode};
  }
  if (args.old_string === args.new_string) throw new WorkbenchError('invalid_argument', `${shown}: old_string and new_string are the same; nothing to change`);
  // read_file shows lines without their \r: in a CRLF file, the model's \n means \r\n.
  if (before.includes('\r\n') && !args.old_string.includes('\r') && args.old_string.includes('\n') && countOccurrences(before, args.old_string) === 0) {
    return planEdit({...args, old_string: toCrlf(args.old_string), new_string: toCrlf(args.new_string)}, context);
  }
  const matches = countOccurrences(before, args.old_string);
  if (matches === 0) throw new WorkbenchError('not_found', `${shown}: old_string was not found (0 matches); read the file again and quote the text exactly, whitespace included`);
  if (matches > 1) throw new WorkbenchError('conflict', `${shown}: old_string is ambiguous (${matches} matches); include more surrounding lines so it occurs exactly once`);
  const at = before.indexOf(args.old_string);
  const after = before.slice(0, at) + args.new_string + before.slice(at + args.old_string.length);
  return {absolute, shown, before, after, created: false, mode};
}

function toCrlf(text: string): string {
  return text.replace(/\r?\n/g, '\r\n');
}

function countOccurrences(text: string, needle: string): number {
  let count = 0;
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + 1)) count += 1;
  return count;
}

function unifiedDiff(plan: PlannedEdit): string {
  // jsdiff heads a patch with `Index:` and a rule of `=`: noise above the --- / +++ lines a reader knows.
  return createPatch(plan.shown, plan.before, plan.after, plan.created ? 'new file' : '', '', {context: 3}).replace(/^Index: .*\n=+\n/, '');
}

function changeCounts(plan: PlannedEdit): {added: number; removed: number} {
  let added = 0;
  let removed = 0;
  for (const hunk of structuredPatch(plan.shown, plan.shown, plan.before, plan.after, '', '', {context: 0}).hunks) {
    for (const line of hunk.lines) {
      if (line.startsWith('+')) added += 1;
      else if (line.startsWith('-')) removed += 1;
    }
  }
  return {added, removed};
}

function countLines(text: string): number {
  if (text === '') return 0;
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}
