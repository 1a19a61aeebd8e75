/**
 * `read_file`: a text file's lines, numbered like `cat -n` so the model can point at them. Binary
 * files are refused (their bytes only waste the model's context), and a long file comes a window
 * at a time: the answer says which lines it holds of how many and how to read on. The file is
 * read as a stream, so a 2 GB log costs a scan, not 2 GB of memory.
 */
import {createReadStream} from 'node:fs';
import {open, stat} from 'node:fs/promises';
import {createInterface} from 'node:readline';
import {z} from 'zod';
import {WorkbenchError} from '../../core/errors.js';
import {toTerminalLine} from '../../text/terminal-safe.js';
import type {AgentTool} from '../types.js';
import {resolveToolPath, rulePath} from './paths.js';
import {jsonSchemaOf, parseToolInput} from './tool-input.js';

/** Lines per answer when the model gives no limit. */
export const DEFAULT_READ_LINES = 2000;
/** The most characters one answer carries; a window is cut at a line so it fits. */
export const READ_BUDGET = 60_000;
/** Lines longer than this are cut (minified bundles): one line must not take the whole budget. */
const LINE_CAP = 2000;

const input = z.strictObject({
  path: z.string().min(1).describe('File to read, relative to the workspace'),
  offset: z.number().int().min(1).optional().describe('First line to read (1-based); default 1'),
  limit: z.number().int().min(1).max(10_000).optional().describe(`How many lines; default ${DEFAULT_READ_LINES}`),
});

export const readFileTool: AgentTool = {
  name: 'read_file',
  description: `Read a text file of the workspace. Lines come numbered ("    12\\tcode"); the numbers are not part of the file. At most ${DEFAULT_READ_LINES} lines per call: give offset (1-based) and limit to read on.`,
  inputSchema: jsonSchemaOf(input),
  permission: 'read',
  safeByDefault: true,
  argument(raw, context) {
    return rulePath(parseToolInput('read_file', input, raw).path, context?.cwd);
  },
  async run(raw, context) {
    const args = parseToolInput('read_file', input, raw);
    const {absolute, shown} = resolveToolPath(context.cwd, args.path);
    const info = await stat(absolute).catch((error: NodeJS.ErrnoException) => {
      throw new WorkbenchError('not_found', error.code === 'ENOENT' ? `${shown}: no such file` : `${shown}: cannot be read (${error.code ?? error.message})`);
    });
    if (info.isDirectory()) throw new WorkbenchError('invalid_argument', `${shown} is a directory; read_file reads files (list it with run_shell "ls ${shown}")`);
    if (await looksBinary(absolute)) throw new WorkbenchError('invalid_argument', `${shown} is a binary file (${info.size.toLocaleString('en')} bytes); read_file reads text only`);

    const first = args.offset ?? 1;
    const limit = args.limit ?? DEFAULT_READ_LINES;
    const lines: string[] = [];
    let total = 0;
    let size = 0;
    let full = false;
    const reader = createInterface({input: createReadStream(absolute, {encoding: 'utf8'}), crlfDelay: Infinity});
    for await (const line of reader) {
      total += 1;
      if (total < first || full || lines.length >= limit) continue;
      const text = line.length > LINE_CAP ? `${line.slice(0, LINE_CAP)} [line cut: ${line.length.toLocaleString('en')} characters]` : line;
      const numbered = `${String(total).padStart(6)}\t${text}`;
      if (size + numbered.length + 1 > READ_BUDGET && lines.length > 0) {
        full = true;
        continue;
      }
      lines.push(numbered);
      size += numbered.length + 1;
    }
    if (total === 0) return {content: `${shown} is empty`, isError: false, row: {tool: 'read_file', summary: `read ${toTerminalLine(shown)} (0 lines)`}};
    if (first > total) throw new WorkbenchError('invalid_argument', `${shown} has ${total} lines; offset ${first} is past the end`);
    const last = first + lines.length - 1;
    const whole = first === 1 && last === total;
    const header = whole ? `${shown}: ${total} lines` : `${shown}: lines ${first}-${last} of ${total}${last < total ? ` (read on with offset=${last + 1})` : ''}`;
    return {
      content: `${header}\n${lines.join('\n')}`,
      isError: false,
      row: {tool: 'read_file', summary: `read ${toTerminalLine(shown)} (${whole ? `${total} line${total === 1 ? '' : 's'}` : `${first}-${last} of ${total} lines`})`},
    };
  },
};

/** A NUL byte in the first 8 KB: what git and grep take for binary. */
async function looksBinary(path: string): Promise<boolean> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(8192);
    const {bytesRead} = await handle.read(buffer, 0, buffer.length, 0);
    return buffer.subarray(0, bytesRead).includes(0);
  } finally {
    await handle.close();
  }
}
