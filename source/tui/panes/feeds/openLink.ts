import {spawn} from 'node:child_process';

/** What `o` did: opened by a browser command, or none could be run (the pane then shows the link). */
export type OpenOutcome = {opened: true; command: string} | {opened: false; reason: string};

/**
 * Opens a web link the way terminal programs do: each command of `$BROWSER` (colon-separated, `%s`
 * standing for the URL, as newsboat and man-db read it), else `xdg-open`. Only http(s) links are
 * handed over, as one argument, with no shell: a feed cannot make us run anything.
 */
export async function openLink(link: string, env: NodeJS.ProcessEnv = process.env): Promise<OpenOutcome> {
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    return {opened: false, reason: 'not a URL'};
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return {opened: false, reason: `not a web link (${url.protocol})`};
  const commands = (env.BROWSER ?? '')
    .split(':')
    .map((command) => command.trim())
    .filter(Boolean);
  commands.push('xdg-open');
  for (const command of commands) {
    const words = command.split(/\s+/);
    const args = words.slice(1).map((word) => word.replace('%s', url.href));
    if (!words.slice(1).some((word) => word.includes('%s'))) args.push(url.href);
    if (await launch(words[0]!, args, env)) return {opened: true, command: words[0]!};
  }
  return {opened: false, reason: env.BROWSER ? `could not run $BROWSER (${env.BROWSER}) or xdg-open` : 'no $BROWSER and no xdg-open'};
}

/** Starts the browser detached, its output away from our screen; true once it started. */
function launch(file: string, args: string[], env: NodeJS.ProcessEnv): Promise<boolean> {
  return new Promise((resolve) => {
    let child;
    try {
      child = spawn(file, args, {detached: true, stdio: 'ignore', env});
    } catch {
      resolve(false);
      return;
    }
    child.once('error', () => resolve(false));
    child.once('spawn', () => {
      child.unref();
      resolve(true);
    });
  });
}
