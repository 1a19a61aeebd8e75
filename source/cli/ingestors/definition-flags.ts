import {readFileSync} from 'node:fs';
import {homedir} from 'node:os';
import {join} from 'node:path';
import {z} from 'zod';
import {option} from 'pastel';
import {WorkbenchError} from '../../core/errors.js';
import type {IngestorInput, IngestorPatch} from '../../feeds/ingestors/types.js';

/** The flags add, edit and test share: the config as JSON, the fields, and a credential read from stdin. */
export const definitionFlags = {
  config: z
    .string()
    .optional()
    .describe(
      option({description: 'The config as JSON, e.g. \'{"instance": "https://mastodon.social", "hashtag": "rust"}\' (see `workbench ingestors --help`)', valueDescription: 'json'}),
    ),
  interval: z
    .string()
    .optional()
    .describe(option({description: 'Minutes between fetches (1–1440, default 15)', valueDescription: 'minutes'})),
  digest: z
    .string()
    .optional()
    .describe(option({description: 'realtime (default), hourly or daily', valueDescription: 'mode'})),
  threshold: z
    .string()
    .optional()
    .describe(option({description: 'Keep statuses scoring at least this (0–1, default 0.25)', valueDescription: 'score'})),
  llm: z
    .string()
    .optional()
    .describe(option({description: 'Ask the model how relevant each status is: on or off', valueDescription: 'on|off'})),
  set: z
    .array(z.string())
    .optional()
    .describe(
      option({
        description: 'A config field, added to --config (repeatable): field=text, or field:=JSON for a number, a list or an object (scoring:=\'{"keywords": {"rust": 2}}\')',
        valueDescription: 'field=value',
      }),
    ),
  secret: z
    .string()
    .optional()
    .describe(
      option({description: "A credential field read from a file's first line, so it never sits in shell history: accessToken=@~/.mastodon-token", valueDescription: 'field=@file'}),
    ),
  secretStdin: z
    .string()
    .optional()
    .describe(option({description: 'Read this config field (accessToken, appPassword, clientSecret) from stdin, so it never sits in shell history', valueDescription: 'field'})),
};

export type DefinitionFlags = {config?: string; set?: string[]; secret?: string; interval?: string; digest?: string; threshold?: string; llm?: string; secretStdin?: string};

export function configFlag(flags: DefinitionFlags): Record<string, unknown> | undefined {
  if (flags.config === undefined && flags.secretStdin === undefined && flags.set === undefined && flags.secret === undefined) return undefined;
  let config: unknown = {};
  if (flags.config !== undefined) {
    try {
      config = JSON.parse(flags.config);
    } catch {
      throw new WorkbenchError('invalid_argument', '--config is not JSON: write it as \'{"instance": "https://mastodon.social", "hashtag": "rust"}\'');
    }
    if (!config || typeof config !== 'object' || Array.isArray(config)) throw new WorkbenchError('invalid_argument', '--config must be a JSON object');
  }
  for (const item of flags.set ?? []) {
    const [field, value] = setItem(item);
    (config as Record<string, unknown>)[field] = value;
  }
  if (flags.secret !== undefined) {
    const [field, value] = secretFile(flags.secret);
    (config as Record<string, unknown>)[field] = value;
  }
  if (flags.secretStdin !== undefined) {
    if (!FIELD.test(flags.secretStdin)) throw new WorkbenchError('invalid_argument', '--secret-stdin takes a config field name, e.g. accessToken');
    const value = readFileSync(0, 'utf8').split(/\r?\n/)[0]?.trim() ?? '';
    if (!value) throw new WorkbenchError('invalid_argument', `--secret-stdin ${flags.secretStdin}: stdin gave no value`);
    (config as Record<string, unknown>)[flags.secretStdin] = value;
  }
  return config as Record<string, unknown>;
}

// A config field's name: what the networks' schemas use (instance, hashtag, accessToken …), never `__proto__`.
const FIELD = /^[A-Za-z]\w{0,40}$/;

/** `--set field=text` or `--set field:=JSON`. */
function setItem(item: string): [string, unknown] {
  const match = /^([^=:]*)(:?=)([\s\S]*)$/.exec(item);
  if (!match || !FIELD.test(match[1]!))
    throw new WorkbenchError('invalid_argument', `--set takes field=value or field:=JSON (e.g. --set hashtag=rust, --set maxStatuses:=100), got "${item}"`);
  const [, field, sign, text] = match as unknown as [string, string, string, string];
  if (sign === '=') return [field, text];
  try {
    return [field, JSON.parse(text)];
  } catch {
    throw new WorkbenchError('invalid_argument', `--set ${field}:= takes JSON (a number, true, a list or an object); use ${field}=… for text`);
  }
}

/**
 * `--secret field=@file`: the file's first line. A value given inline is refused: it would sit in
 * shell history and in the process list, and this flag exists to keep it out of both.
 */
function secretFile(item: string): [string, string] {
  const match = /^([^=]*)=([\s\S]*)$/.exec(item);
  if (!match || !FIELD.test(match[1]!)) throw new WorkbenchError('invalid_argument', '--secret takes field=@file, e.g. --secret accessToken=@token.txt');
  const [, field, source] = match as unknown as [string, string, string];
  if (!source.startsWith('@') || source.length < 2)
    throw new WorkbenchError('invalid_argument', `--secret ${field}= takes @file (the credential's file), not the credential itself; or use --secret-stdin ${field}`);
  const path = expandHome(source.slice(1));
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new WorkbenchError('invalid_argument', `--secret ${field}: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? 'unreadable'})`);
  }
  const value = text.split(/\r?\n/)[0]?.trim() ?? '';
  if (!value) throw new WorkbenchError('invalid_argument', `--secret ${field}: ${path} is empty`);
  return [field, value];
}

function expandHome(path: string): string {
  return path === '~' || path.startsWith('~/') ? join(homedir(), path.slice(1)) : path;
}

/** The fields given as flags, typed as the API takes them (the service checks their ranges). */
export function fieldFlags(flags: DefinitionFlags): IngestorPatch {
  const patch: IngestorPatch = {};
  if (flags.interval !== undefined) patch.fetchIntervalMin = number(flags.interval, '--interval');
  if (flags.threshold !== undefined) patch.filterThreshold = number(flags.threshold, '--threshold');
  if (flags.digest !== undefined) patch.digestMode = flags.digest as IngestorPatch['digestMode'];
  if (flags.llm !== undefined) {
    if (!['on', 'off', 'true', 'false'].includes(flags.llm)) throw new WorkbenchError('invalid_argument', '--llm takes on or off');
    patch.llmEnabled = flags.llm === 'on' || flags.llm === 'true';
  }
  return patch;
}

export function definition(kind: string, flags: DefinitionFlags): IngestorInput {
  const config = configFlag(flags);
  if (config === undefined)
    throw new WorkbenchError(
      'invalid_argument',
      'give the config: --config \'{"instance": "https://mastodon.social", "hashtag": "rust"}\' or --set instance=https://mastodon.social --set hashtag=rust',
    );
  return {kind: kind as IngestorInput['kind'], config, ...fieldFlags(flags)};
}

function number(text: string, flag: string): number {
  const value = Number(text.trim());
  if (text.trim() === '' || !Number.isFinite(value)) throw new WorkbenchError('invalid_argument', `${flag} takes a number, got "${text}"`);
  return value;
}
