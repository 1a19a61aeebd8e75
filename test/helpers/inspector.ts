import {spawn} from 'node:child_process';
import {createRequire} from 'node:module';
import {dirname, join} from 'node:path';

/** A published MCP client nobody here wrote: the MCP Inspector's CLI mode (0.15, the last on Node 20). */
export const inspectorCli = join(dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/inspector/package.json')), 'cli/build/cli.js');

/** Runs `inspector --cli <args>`: its exit code and output; a run over 30 s is killed and fails. */
export function inspect(args: string[], options: {env: NodeJS.ProcessEnv; cwd: string}): Promise<{code: number | null; stdout: string; stderr: string}> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [inspectorCli, '--cli', ...args], {env: options.env, cwd: options.cwd});
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => (child.kill('SIGKILL'), reject(new Error(`inspector hung\n${stdout}\n${stderr}`))), 30_000);
    child.on('close', (code) => (clearTimeout(timer), resolve({code, stdout, stderr})));
  });
}
