import type {MetadataRule, ModelProblem} from '../types.js';
import {KEY_SPELLINGS} from './keys.js';
import {parseSelector} from './selector.js';

/**
 * `GqlService:Metadata` strings → rules, by the spec's numbered syntax rules:
 *  1. the block runs from the first `{` to the last `}`; selectors hold no brace, values may;
 *  2. `;` separates properties, except inside backticks;
 *  3. only the first `:` of a property splits key from value;
 *  4. `,` separates selectors sharing the block;
 *  6. a value wrapped in backticks is taken verbatim (no trimming, `;` kept);
 *  7. malformed rules are reported naming the rule: missing brace, empty selector, property
 *     without `:`, empty key, duplicate key, unbalanced backtick;
 *  9. keys are kebab-case, `min-length`/`max-length` stored as `minlength`/`maxlength`.
 * (5, 8 and 10 are the selectors' and the resolver's.) A malformed rule is left out of `rules`;
 * every problem of every rule is returned at once.
 */
export function parseRules(strings: readonly string[]): {rules: MetadataRule[]; problems: ModelProblem[]} {
  const rules: MetadataRule[] = [];
  const problems: ModelProblem[] = [];
  strings.forEach((text, index) => {
    const errors: string[] = [];
    const rule = parseRule(text, index, errors);
    for (const reason of errors) problems.push({message: `metadata rule ${index} ${JSON.stringify(text)}: ${reason}`, rule: text, ruleIndex: index});
    if (rule && errors.length === 0) rules.push(rule);
  });
  return {rules, problems};
}

function parseRule(text: string, index: number, errors: string[]): MetadataRule | undefined {
  const open = text.indexOf('{');
  const close = text.lastIndexOf('}');
  if (open === -1 || close === -1 || close < open) {
    errors.push(open === -1 ? 'missing brace: no "{" opens the property block' : 'missing brace: no "}" closes the property block');
    return undefined;
  }
  if (text.slice(close + 1).trim() !== '') errors.push(`text after the closing "}": ${JSON.stringify(text.slice(close + 1).trim())}`);
  const head = text.slice(0, open);
  if (head.includes('}')) errors.push('missing brace: a "}" stands before the "{" (selectors may not contain braces)');

  const selectors = head.split(',').map((selector) => selector.trim());
  if (selectors.some((selector) => selector === ''))
    errors.push(selectors.length === 1 ? 'empty selector: nothing before "{"' : 'empty selector: a "," with no selector beside it');
  for (const selector of selectors) {
    if (selector === '') continue;
    const parsed = parseSelector(selector);
    if ('error' in parsed) errors.push(`selector "${selector}": ${parsed.error}`);
  }

  const body = text.slice(open + 1, close);
  const parts = splitProperties(body);
  if (parts === undefined) {
    errors.push('unbalanced backtick: a value opens a ` it never closes');
    return undefined;
  }
  const properties: Array<[string, string]> = [];
  const seen = new Set<string>();
  for (const part of parts) {
    if (part.trim() === '') continue;
    const colon = part.indexOf(':');
    if (colon === -1) {
      errors.push(`property without ":": ${JSON.stringify(part.trim())}`);
      continue;
    }
    const written = part.slice(0, colon).trim();
    if (written === '') {
      errors.push(`empty key: ${JSON.stringify(part.trim())}`);
      continue;
    }
    const key = normaliseKey(written);
    if (seen.has(key)) {
      errors.push(`duplicate key: ${written}`);
      continue;
    }
    seen.add(key);
    properties.push([key, readValue(part.slice(colon + 1))]);
  }
  return {index, text, selectors, properties};
}

/** Splits on `;` outside backticks; undefined when a backtick is left open. */
function splitProperties(body: string): string[] | undefined {
  const parts: string[] = [];
  let current = '';
  let quoted = false;
  for (const char of body) {
    if (char === '`') quoted = !quoted;
    if (char === ';' && !quoted) {
      parts.push(current);
      current = '';
      continue;
    }
    current += char;
  }
  if (quoted) return undefined;
  parts.push(current);
  return parts;
}

/** A value trimmed, or — wrapped whole in backticks — the text between them exactly. */
function readValue(raw: string): string {
  const trimmed = raw.trim();
  if (trimmed.length >= 2 && trimmed.startsWith('`') && trimmed.endsWith('`') && !trimmed.slice(1, -1).includes('`')) return trimmed.slice(1, -1);
  return trimmed;
}

/** Kebab-case as written, lower-cased (.NET keys compare case-insensitively); rule 9's two spellings stored upstream's way. */
function normaliseKey(key: string): string {
  const lower = key.toLowerCase();
  return KEY_SPELLINGS[lower] ?? lower;
}
