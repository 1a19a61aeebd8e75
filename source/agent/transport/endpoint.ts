import {WorkbenchError} from '../../core/errors.js';
import type {ApiChoice, ResolvedCredential, Transport} from '../types.js';

/** The messages vendor's API, and the default chat-completions root when no sign-in names one. */
export const MESSAGES_BASE = 'https://api.anthropic.com';
export const CHAT_COMPLETIONS_BASE = 'https://api.openai.com/v1';

/** Defaults a user overrides with --model (README "Agent"). */
export const DEFAULT_MODELS: Record<Transport, string> = {
  messages: 'claude-sonnet-5-5',
  'chat-completions': 'gpt-5.4',
};

/** Spec "Transports": auto is chat-completions when a browser sign-in is in play, otherwise messages. */
export function pickTransport(api: ApiChoice, credential: ResolvedCredential): Transport {
  if (api !== 'auto') return api;
  return credential.step === 'sign-in' ? 'chat-completions' : 'messages';
}

// A trailing version segment: /v1, /v2beta, /api/v1 … (the messages transport adds its own).
const VERSION_TAIL = /\/v\d+[a-z0-9]*\/?$/i;

/**
 * The messages endpoint: the base without a version segment, `/v1/messages` appended. A base that
 * already ends in a version would request `/v1/v1/messages` and get an HTML 404 from the server;
 * it is refused up front with the base to use instead.
 */
export function messagesEndpoint(baseUrl: string): string {
  const base = trimSlash(baseUrl);
  if (VERSION_TAIL.test(new URL(base).pathname)) throw doubledVersion(base);
  return `${base}/v1/messages`;
}

/** The chat-completions endpoint: the full API root including its version segment, `/chat/completions` appended. */
export function chatCompletionsEndpoint(baseUrl: string): string {
  return `${trimSlash(baseUrl)}/chat/completions`;
}

/** The explanation of a base with a version segment on the messages transport (also for a 404 that shows it happened). */
export function doubledVersion(base: string): WorkbenchError {
  const without = trimSlash(base).replace(VERSION_TAIL, '');
  return new WorkbenchError(
    'invalid_argument',
    `--base-url ${base} already ends in a version segment; the messages transport appends /v1/messages itself (that would request ${new URL(base).pathname.replace(/\/$/, '')}/v1/messages and get an HTML 404). Use --base-url ${without}, or --api chat-completions for an endpoint that serves /chat/completions`,
  );
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}
