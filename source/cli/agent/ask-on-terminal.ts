import {createInterface} from 'node:readline/promises';
import type {PermissionAnswer, PermissionRequest} from '../../agent/types.js';
import {toTerminalLine, toTerminalText} from '../../text/terminal-safe.js';

/**
 * Asks on the terminal whether a tool may run (`workbench agent`, `workbench acp`): the preview (a
 * diff, a command), what it is and which rule made it a question, then y / n / a(lways).
 * Anything else asks again; the end of input (Ctrl-D) refuses; Ctrl-C refuses and is passed on,
 * so it cancels the turn as it does elsewhere.
 */
export async function askOnTerminal(request: PermissionRequest): Promise<PermissionAnswer> {
  const lines = createInterface({input: process.stdin, output: process.stderr});
  const closed = new Promise<string>((resolve) => lines.once('close', () => resolve('n')));
  lines.once('SIGINT', () => {
    lines.close();
    process.emit('SIGINT', 'SIGINT');
  });
  try {
    if (request.preview && request.preview !== request.argument) process.stderr.write(`${toTerminalText(request.preview)}\n`);
    for (;;) {
      const answer = (
        await Promise.race([
          closed,
          lines.question(`allow ${request.tool}: ${toTerminalLine(request.argument)}? (${toTerminalLine(request.decision.reason)}) [y]es / [n]o / [a]lways: `),
        ])
      )
        .trim()
        .toLowerCase();
      if (answer === 'y' || answer === 'yes') return 'allow';
      if (answer === 'a' || answer === 'always') return 'always';
      if (answer === 'n' || answer === 'no') return 'deny';
    }
  } catch {
    return 'deny';
  } finally {
    lines.close();
  }
}
