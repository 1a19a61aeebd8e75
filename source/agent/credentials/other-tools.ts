import {existsSync, readFileSync} from 'node:fs';
import {join} from 'node:path';
import {visit} from 'jsonc-parser';
import type {CredentialReport} from '../types.js';
import {readDotenv} from './env-file.js';

/**
 * Other command-line tools' credential stores (resolution step 5). Only API keys are taken; a
 * sign-in token another application obtained is listed by provider and never read: its refresh
 * tokens rotate, so using one would sign that application out, and it was granted to that client.
 */
export interface StoreScan {
  /** A messages-API key found in a store (the first one wins). */
  keys: Array<{source: string; secret: string}>;
  skipped: CredentialReport['skipped'];
  unusable: CredentialReport['unusable'];
  /** One line per store looked at, for `tried`. */
  looked: string[];
}

const TOKEN_SKIP_REASON = "another application's sign-in token: never read or refreshed (it was granted to that application, and refreshing it would sign it out)";

/** Variables holding keys of providers `workbench agent` cannot talk to (they have their own agents: `workbench acp`). */
export const UNUSABLE_KEY_VARIABLES: Record<string, string> = {
  OPENAI_API_KEY: 'openai',
  GEMINI_API_KEY: 'gemini',
  GOOGLE_API_KEY: 'gemini',
};

export function scanOtherTools(home: string): StoreScan {
  const scan: StoreScan = {keys: [], skipped: [], unusable: [], looked: []};
  claudeConfig(home, scan);
  claudeCredentials(home, scan);
  codexAuth(home, scan);
  geminiStore(home, scan);
  return scan;
}

/** Claude Code keeps a console-issued API key in `~/.claude.json` as `primaryApiKey`. */
function claudeConfig(home: string, scan: StoreScan): void {
  const path = join(home, '.claude.json');
  const value = readJson(path, scan);
  if (value === undefined) return;
  const key = (value as {primaryApiKey?: unknown}).primaryApiKey;
  if (typeof key === 'string' && key.trim() !== '') {
    scan.keys.push({source: `${path} primaryApiKey`, secret: key.trim()});
    scan.looked.push(`${path}: primaryApiKey found`);
  } else scan.looked.push(`${path}: no primaryApiKey`);
}

/** `~/.claude/.credentials.json` holds sign-in tokens (`claudeAiOauth`): only its top-level names are looked at. */
function claudeCredentials(home: string, scan: StoreScan): void {
  const path = join(home, '.claude', '.credentials.json');
  const shape = topLevelShape(path, scan);
  if (shape === undefined) return;
  const names = Object.keys(shape);
  for (const name of names) {
    const provider = name === 'claudeAiOauth' ? 'Claude Code sign-in (claudeAiOauth)' : `Claude Code ${name}`;
    scan.skipped.push({provider, where: path, reason: TOKEN_SKIP_REASON});
  }
  scan.looked.push(`${path}: ${names.length > 0 ? `sign-in tokens only (${names.join(', ')}), skipped` : 'empty'}`);
}

/** Codex CLI: `~/.codex/auth.json` holds an OpenAI key (`OPENAI_API_KEY`) or ChatGPT sign-in `tokens`. */
function codexAuth(home: string, scan: StoreScan): void {
  const path = join(home, '.codex', 'auth.json');
  const shape = topLevelShape(path, scan);
  if (shape === undefined) return;
  const parts: string[] = [];
  if (shape.OPENAI_API_KEY === 'text') {
    scan.unusable.push({provider: 'openai', where: `${path} OPENAI_API_KEY`});
    parts.push('an OpenAI key (not usable here)');
  }
  if (shape.tokens !== undefined && shape.tokens !== 'null') {
    scan.skipped.push({provider: 'Codex sign-in (tokens)', where: path, reason: TOKEN_SKIP_REASON});
    parts.push('a sign-in token, skipped');
  }
  scan.looked.push(`${path}: ${parts.length > 0 ? parts.join('; ') : 'no keys'}`);
}

/** Gemini CLI: `~/.gemini/oauth_creds.json` is a sign-in (not opened); `~/.gemini/.env` may hold a Gemini key. */
function geminiStore(home: string, scan: StoreScan): void {
  const creds = join(home, '.gemini', 'oauth_creds.json');
  if (existsSync(creds)) {
    scan.skipped.push({provider: 'Gemini CLI sign-in', where: creds, reason: TOKEN_SKIP_REASON});
    scan.looked.push(`${creds}: a sign-in token, skipped`);
  }
  const envPath = join(home, '.gemini', '.env');
  const file = readDotenv(envPath);
  if (file && 'values' in file) {
    for (const name of ['GEMINI_API_KEY', 'GOOGLE_API_KEY']) if (file.values[name]) scan.unusable.push({provider: 'gemini', where: `${envPath} ${name}`});
  }
}

/** A store file's text; undefined when it is not there, and said in the scan when it cannot be read. */
function readStoreText(path: string, scan: StoreScan): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR') scan.looked.push(`${path}: cannot read (${code})`);
    return undefined;
  }
}

function readJson(path: string, scan: StoreScan): object | undefined {
  const text = readStoreText(path, scan);
  if (text === undefined) return undefined;
  try {
    const value = JSON.parse(text) as unknown;
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as object;
  } catch {
    // Reported below without the parser's message: it quotes the file's text, which may be a secret.
  }
  scan.looked.push(`${path}: not a JSON object, ignored`);
  return undefined;
}

/** What a top-level value is, without its content: a non-empty string is only `text`. */
type ValueShape = 'text' | 'empty' | 'null' | 'object' | 'array' | 'other';

/**
 * The top-level property names of a JSON object file and the shape of each value. A tokenizer walks
 * the text and hands us names; values are never kept (a string is reduced to `text` or `empty` on
 * the spot), so tokens in the file are not decoded into anything this program holds.
 */
function topLevelShape(path: string, scan: StoreScan): Record<string, ValueShape> | undefined {
  const text = readStoreText(path, scan);
  if (text === undefined) return undefined;
  const shape: Record<string, ValueShape> = {};
  let depth = 0;
  let current: string | undefined;
  let broken = false;
  let topIsObject = false;
  const at = (kind: ValueShape) => {
    if (depth === 1 && current !== undefined) shape[current] = kind;
  };
  visit(
    text,
    {
      onObjectBegin: () => {
        if (depth === 0) topIsObject = true;
        at('object');
        depth++;
      },
      onObjectEnd: () => void depth--,
      onArrayBegin: () => {
        at('array');
        depth++;
      },
      onArrayEnd: () => void depth--,
      onObjectProperty: (name) => {
        if (depth === 1) current = name;
      },
      onLiteralValue: (value: unknown) => at(value === null ? 'null' : value === '' ? 'empty' : typeof value === 'string' ? 'text' : 'other'),
      onError: () => void (broken = true),
    },
    {disallowComments: true},
  );
  if (broken || !topIsObject) {
    scan.looked.push(`${path}: not a JSON object, ignored`);
    return undefined;
  }
  return shape;
}
