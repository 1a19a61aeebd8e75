import {resolveCredential} from '../../../agent/credentials/resolve.js';
import {redact} from '../../../agent/credentials/redact.js';
import {openTransport} from '../../../agent/transport/open.js';
import {pickTransport} from '../../../agent/transport/endpoint.js';
import type {ModelTransport} from '../../../agent/types.js';
import {describeError} from '../../../core/errors.js';
import {loadProjectConfig} from '../../../project/config.js';
import type {JudgeOutcome, Judgement, RelevanceJudge, SocialStatus} from '../types.js';

/** Statuses per model call: the issue's bound, at most one call per 50 statuses. */
export const BATCH = 50;
const TEXT_CHARS = 500;
const WHY_CHARS = 200;

export interface ModelJudgeOptions {
  /** Where `.workbench.kdl` (its `agent { api base-url model }`) and `.env.local` are looked for. */
  cwd: string;
  env: NodeJS.ProcessEnv;
  home: string;
  timeoutMs?: number;
}

const SYSTEM = [
  'You rate social-network posts for a reader who follows many sources and wants only what matters to them.',
  "For each post, answer how relevant it is to the reader's interests, from 0 (noise) to 1 (must read), and why in at most 12 words.",
  'Answer with JSON only: [{"id": "s1", "relevance": 0.8, "why": "…"}, …], one entry per post, ids as given.',
].join(' ');

/**
 * A RelevanceJudge over the agent module's credential chain and transports (the same endpoint
 * `workbench agent` talks to). It never throws for what a user must fix (no credential, an
 * endpoint down): the outcome's `problem` says it in a sentence, and the statuses flow unjudged.
 */
export async function openModelJudge(options: ModelJudgeOptions): Promise<RelevanceJudge> {
  const opened = await openEndpoint(options).catch((error: unknown) => ({problem: `the model could not be reached: ${describeError(error)}`}));
  return {
    async judge(statuses, interests, {maxCalls, signal}) {
      if ('problem' in opened) return {judgements: new Map(), calls: 0, unjudged: statuses.length, problem: opened.problem};
      return judgeInBatches(opened, statuses, interests, maxCalls, signal);
    },
  };
}

interface OpenEndpoint {
  transport: ModelTransport;
  model: string;
  secrets: string[];
}

async function openEndpoint(options: ModelJudgeOptions): Promise<OpenEndpoint | {problem: string}> {
  const project = (await loadProjectConfig(options.cwd).catch(() => null))?.agentEndpoint ?? {};
  const report = await resolveCredential({baseUrl: project.baseUrl, discovery: true, cwd: options.cwd, env: options.env, home: options.home});
  const credential = report.credential;
  if (!credential)
    return {
      problem: 'no model credential: set MESSAGES_API_KEY (or ANTHROPIC_API_KEY) where the reader runs, or sign in with `workbench connect`; statuses are scored without the model',
    };
  const {transport, model} = await openTransport({
    transport: pickTransport(project.api ?? 'auto', credential),
    baseUrl: project.baseUrl,
    model: project.model,
    credential,
    timeoutMs: options.timeoutMs,
  });
  return {transport, model, secrets: [credential.secret]};
}

async function judgeInBatches(endpoint: OpenEndpoint, statuses: SocialStatus[], interests: string, maxCalls: number, signal?: AbortSignal): Promise<JudgeOutcome> {
  const judgements = new Map<string, Judgement>();
  let calls = 0;
  let problem: string | null = null;
  for (let start = 0; start < statuses.length && calls < maxCalls; start += BATCH) {
    const batch = statuses.slice(start, start + BATCH);
    calls++;
    try {
      const result = await endpoint.transport.turn(
        {model: endpoint.model, system: SYSTEM, messages: [{role: 'user', text: prompt(batch, interests)}], tools: [], maxTokens: 60 * batch.length + 200, signal},
        () => undefined,
      );
      for (const [index, judgement] of readAnswer(result.text)) {
        const status = batch[index];
        if (status) judgements.set(status.key, judgement);
      }
    } catch (error) {
      // A failed call leaves its batch unjudged; later batches would most likely fail the same way.
      problem = redact(`the model failed: ${describeError(error)}`, endpoint.secrets);
      break;
    }
  }
  if (problem === null && judgements.size < statuses.length && calls >= maxCalls && statuses.length > calls * BATCH)
    problem = `the model's budget for this cycle (${maxCalls} call${maxCalls === 1 ? '' : 's'}) was spent: ${statuses.length - judgements.size} statuses were scored without it`;
  return {judgements, calls, unjudged: statuses.length - judgements.size, problem};
}

function prompt(batch: SocialStatus[], interests: string): string {
  const lines = [interests ? `The reader's interests: ${interests}` : 'The reader has not said what interests them: judge general quality and substance.', '', 'Posts:'];
  batch.forEach((status, index) => {
    const text = `${status.title ? `${status.title} — ` : ''}${status.text}`.replace(/\s+/g, ' ').slice(0, TEXT_CHARS);
    lines.push(`s${index + 1} (@${status.author.handle}): ${text}`);
  });
  return lines.join('\n');
}

/** The model's JSON array, found in its answer (a code fence or words around it are allowed): index in the batch → judgement. */
export function readAnswer(text: string): Map<number, Judgement> {
  const found = new Map<number, Judgement>();
  const start = text.indexOf('[');
  const end = text.lastIndexOf(']');
  if (start < 0 || end <= start) return found;
  let entries: unknown;
  try {
    entries = JSON.parse(text.slice(start, end + 1));
  } catch {
    return found;
  }
  if (!Array.isArray(entries)) return found;
  for (const entry of entries) {
    if (!entry || typeof entry !== 'object') continue;
    const {id, relevance, why} = entry as {id?: unknown; relevance?: unknown; why?: unknown};
    const index = typeof id === 'string' ? Number(/^s(\d+)$/.exec(id.trim())?.[1]) - 1 : Number.NaN;
    const value = typeof relevance === 'number' ? relevance : typeof relevance === 'string' ? Number(relevance) : Number.NaN;
    if (!Number.isInteger(index) || index < 0 || !Number.isFinite(value)) continue;
    const reason =
      typeof why === 'string'
        ? why
            .replace(/[\p{Cc}\p{Cf}]+/gu, ' ')
            .trim()
            .slice(0, WHY_CHARS)
        : '';
    found.set(index, {relevance: Math.min(1, Math.max(0, value)), why: reason || 'no reason given'});
  }
  return found;
}
