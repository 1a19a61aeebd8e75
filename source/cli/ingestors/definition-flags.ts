import {readFileSync} from 'node:fs';
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
  secretStdin: z
    .string()
    .optional()
    .describe(option({description: 'Read this config field (accessToken, appPassword, clientSecret) from stdin, so it never sits in shell history', valueDescription: 'field'})),
};

export type DefinitionFlags = {config?: string; interval?: string; digest?: string; threshold?: string; llm?: string; secretStdin?: string};

export function configFlag(flags: DefinitionFlags): Record<string, unknown> | undefined {
  if (flags.config === undefined && flags.secretStdin === undefined) return undefined;
  let config: unknown = {};
  if (flags.config !== undefined) {
    try {
      config = JSON.parse(flags.config);
    } catch {
      throw new WorkbenchError('invalid_argument', '--config is not JSON: write it as \'{"instance": "https://mastodon.social", "hashtag": "rust"}\'');
    }
    if (!config || typeof config !== 'object' || Array.isArray(config)) throw new WorkbenchError('invalid_argument', '--config must be a JSON object');
  }
  if (flags.secretStdin !== undefined) {
    if (!/^[A-Za-z]\w{0,40}$/.test(flags.secretStdin)) throw new WorkbenchError('invalid_argument', '--secret-stdin takes a config field name, e.g. accessToken');
    const value = readFileSync(0, 'utf8').split(/\r?\n/)[0]?.trim() ?? '';
    if (!value) throw new WorkbenchError('invalid_argument', `--secret-stdin ${flags.secretStdin}: stdin gave no value`);
    (config as Record<string, unknown>)[flags.secretStdin] = value;
  }
  return config as Record<string, unknown>;
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
  if (config === undefined) throw new WorkbenchError('invalid_argument', 'give the config: --config \'{"instance": "https://mastodon.social", "hashtag": "rust"}\'');
  return {kind: kind as IngestorInput['kind'], config, ...fieldFlags(flags)};
}

function number(text: string, flag: string): number {
  const value = Number(text.trim());
  if (text.trim() === '' || !Number.isFinite(value)) throw new WorkbenchError('invalid_argument', `${flag} takes a number, got "${text}"`);
  return value;
}
