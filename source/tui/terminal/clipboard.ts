/**
 * Copying to the user's clipboard with OSC 52: the terminal itself sets its clipboard, so it works
 * over ssh and in a container where no clipboard program could reach the user's desktop. In tmux
 * the sequence is sent twice: plain (tmux takes it with `set-clipboard on`, its default `external`
 * passes its own copies only) and wrapped in tmux's passthrough (`allow-passthrough on`), which
 * reaches the outer terminal directly.
 */
export function osc52(text: string, env: NodeJS.ProcessEnv = process.env): string {
  const sequence = `\u001b]52;c;${Buffer.from(text, 'utf8').toString('base64')}\u0007`;
  if (!env.TMUX) return sequence;
  return sequence + `\u001bPtmux;${sequence.replaceAll('\u001b', '\u001b\u001b')}\u001b\\`;
}

/** Writes the copy to the terminal (the terminal, not we, sets the clipboard). */
export function writeClipboard(stdout: NodeJS.WriteStream, text: string, env: NodeJS.ProcessEnv = process.env): void {
  stdout.write(osc52(text, env));
}

/** Copies the chat's last answer; returns what the user is told. */
export function copyToClipboard(stdout: NodeJS.WriteStream, text: string, env: NodeJS.ProcessEnv = process.env): string {
  writeClipboard(stdout, text, env);
  const lines = text.split('\n').length;
  return `copied the last answer (${text.length} characters, ${lines} line${lines === 1 ? '' : 's'}) to the clipboard (OSC 52)`;
}
