import {spawn} from 'node:child_process';

/**
 * Opens a URL with the user's opener: `$BROWSER` (the first of a colon-separated list, the
 * convention xdg-utils and Python's webbrowser follow), else the platform's. Resolves once the
 * opener started; it is left running on its own (a browser outlives this command).
 */
export function openBrowser(url: string, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const chosen = env.BROWSER?.split(':').find((entry) => entry.trim() !== '');
  const [command, args] = chosen
    ? [chosen.trim(), [url]]
    : process.platform === 'darwin'
      ? ['open', [url]]
      : process.platform === 'win32'
        ? ['rundll32', ['url.dll,FileProtocolHandler', url]]
        : ['xdg-open', [url]];
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {detached: true, stdio: 'ignore'});
    child.once('error', (error: NodeJS.ErrnoException) => reject(new Error(`${command}: ${error.code ?? error.message}`)));
    child.once('spawn', () => {
      child.unref();
      resolve();
    });
  });
}
