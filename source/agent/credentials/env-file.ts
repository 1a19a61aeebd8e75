import {readFileSync} from 'node:fs';
import {join} from 'node:path';
import {parse} from 'dotenv';

/** The workspace's `.env.local`, parsed as text (dotenv's parser): never executed, never put in process.env. */
export type EnvFile = {path: string; values: Record<string, string>} | {path: string; problem: string} | undefined;

export function readEnvLocal(cwd: string): EnvFile {
  return readDotenv(join(cwd, '.env.local'));
}

export function readDotenv(path: string): EnvFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    return {path, problem: `cannot read (${code ?? (error as Error).message})`};
  }
  return {path, values: parse(text)};
}
