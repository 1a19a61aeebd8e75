// `workbench serve graphql` of the build, in a child process, for the GraphQL benchmarks: a free
// port, the settings file given, its own WORKBENCH_HOME, and a wait until it answers.
import {spawn} from 'node:child_process';
import {existsSync} from 'node:fs';
import net from 'node:net';
import {fileURLToPath} from 'node:url';

const cli = fileURLToPath(new URL('../dist/source/cli.js', import.meta.url));

export const freePort = () =>
  new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const {port} = server.address();
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });

/** A GraphQL endpoint answers `{__typename}`: the default sign of a server ready. */
const answersGraphql = (base) =>
  fetch(`${base}/graphql`, {method: 'POST', headers: {'content-type': 'application/json'}, body: JSON.stringify({query: '{__typename}'})}).then(
    (response) => response.ok,
    () => false,
  );

/**
 * Starts the server and resolves once `ready(base)` is true (base `http://127.0.0.1:<port>`).
 * `nodeArgs` go to node before the CLI (a CPU profile); the caller kills `child` when done.
 */
export async function serveGraphql({settings, home, nodeArgs = [], ready = answersGraphql}) {
  if (!existsSync(cli)) throw new Error('dist/source/cli.js missing: run `npm run build` first');
  const port = await freePort();
  const child = spawn(process.execPath, [...nodeArgs, cli, 'serve', 'graphql', '--settings', settings, '--port', String(port)], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {...process.env, WORKBENCH_HOME: home, NODE_ENV: 'production'},
  });
  const base = `http://127.0.0.1:${port}`;
  let exit = null;
  child.once('exit', (code, signal) => (exit = code ?? signal));
  for (let tries = 0; ; tries++) {
    if (await ready(base)) return {base, port, child};
    if (exit !== null) throw new Error(`workbench serve graphql exited (${exit}) before answering`);
    if (tries > 300) {
      child.kill();
      throw new Error('workbench serve graphql did not answer within 30 s');
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
