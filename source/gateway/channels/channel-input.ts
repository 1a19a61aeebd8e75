import {WorkbenchError} from '../../core/errors.js';
import {toTerminalText} from '../../text/terminal-safe.js';
import {CHANNEL_ITEM_MAX_BYTES, CHANNEL_TTL_DEFAULT_HOURS, CHANNEL_TTL_MAX_HOURS, CHANNEL_TTL_MIN_HOURS} from '../types.js';

// Bodies from outside (HTTP, CLI, MCP) checked here, whatever the face validated: the logic is the
// last line. Text is cleaned before it is stored — no control character but \n and \t, no escape
// sequence or bidi override — because it ends up in XML (where most controls are illegal) and in
// terminals (the CLI and the TUI).

export const CHANNEL_TITLE_MAX_CHARS = 200;
export const CHANNEL_DESCRIPTION_MAX_CHARS = 2000;

export interface ChannelInput {
  title: string;
  description: string | null;
  ttlHours: number;
}

export interface ChannelItemInput {
  title: string;
  link: string | null;
  description: string | null;
}

const invalid = (message: string) => new WorkbenchError('invalid_body', message);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Outside text made safe to store: controls (but \n, \t), escape sequences and bidi overrides removed. */
export function cleanText(text: string): string {
  return toTerminalText(text);
}

const chars = (text: string) => [...text].length;

function requiredTitle(value: unknown, max: number | undefined): string {
  if (typeof value !== 'string') throw invalid('title is required and must be a string');
  const title = cleanText(value).trim();
  if (title === '') throw invalid('title must not be empty');
  if (max !== undefined && chars(title) > max) throw invalid(`title must be at most ${max} characters`);
  return title;
}

/** An optional string: absent or null → null; empty after cleaning → null. */
function optionalText(value: unknown, field: string, max?: number): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw invalid(`${field} must be a string`);
  const text = cleanText(value).trim();
  if (max !== undefined && chars(text) > max) throw invalid(`${field} must be at most ${max} characters`);
  return text === '' ? null : text;
}

/** `ttlHours`: absent → 168; an integer is clamped to 1..720 (spec: 0 → 1, 10000 → 720); anything else is refused. */
export function ttlHours(value: unknown): number {
  if (value === undefined || value === null) return CHANNEL_TTL_DEFAULT_HOURS;
  if (typeof value !== 'number' || !Number.isInteger(value)) throw invalid('ttl_hours must be an integer (hours, clamped to 1..720)');
  return Math.min(CHANNEL_TTL_MAX_HOURS, Math.max(CHANNEL_TTL_MIN_HOURS, value));
}

/** A new channel's fields, checked and cleaned. */
export function readChannelInput(input: unknown): ChannelInput {
  if (!isRecord(input)) throw invalid('the body must be a JSON object {title, description?, ttl_hours?}');
  return {
    title: requiredTitle(input.title, CHANNEL_TITLE_MAX_CHARS),
    description: optionalText(input.description, 'description', CHANNEL_DESCRIPTION_MAX_CHARS),
    ttlHours: ttlHours(input.ttlHours),
  };
}

/** The size an item is measured by: its JSON in UTF-8 bytes (what a client sends as the body). */
export function itemBytes(input: unknown): number {
  try {
    return Buffer.byteLength(JSON.stringify(input) ?? '', 'utf8');
  } catch {
    throw invalid('the item is not JSON');
  }
}

function httpLink(value: unknown): string | null {
  const text = optionalText(value, 'link');
  if (text === null) return null;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw invalid('link must be an absolute http(s) URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalid('link must be an http(s) URL');
  return url.href;
}

/** A posted item's fields, checked (64 KB at most, a title, an http(s) link) and cleaned. */
export function readChannelItemInput(input: unknown): ChannelItemInput {
  if (!isRecord(input)) throw invalid('the body must be a JSON object {title, link?, description?}');
  const bytes = itemBytes(input);
  if (bytes > CHANNEL_ITEM_MAX_BYTES) throw new WorkbenchError('payload_too_large', `the item is ${bytes} bytes; at most ${CHANNEL_ITEM_MAX_BYTES} are taken`);
  return {
    title: requiredTitle(input.title, undefined),
    link: httpLink(input.link),
    description: optionalText(input.description, 'description'),
  };
}
