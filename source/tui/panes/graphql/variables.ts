import {WorkbenchError} from '../../../core/errors.js';

/**
 * The variables box's text as GraphQL variables, checked before anything runs: empty is none;
 * otherwise a JSON object, or an error that says where the JSON went wrong.
 */
export function parseVariables(text: string): Record<string, unknown> | undefined {
  if (!text.trim()) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new WorkbenchError('invalid_argument', `variables are not valid JSON: ${where(text, (error as Error).message)}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new WorkbenchError(
      'invalid_argument',
      `variables must be a JSON object, like {"id": 1} (got ${Array.isArray(value) ? 'an array' : value === null ? 'null' : typeof value})`,
    );
  }
  return value as Record<string, unknown>;
}

// V8 says "at position 12": the user looks for a line and a column.
function where(text: string, message: string): string {
  const position = /at position (\d+)/.exec(message);
  const short = message
    .replace(/^JSON\.parse: /, '')
    .replace(/ in JSON at position \d+.*$/, '')
    .replace(/\s*\(line \d+ column \d+\)$/, '');
  if (!position) return short;
  const before = text.slice(0, Number(position[1]));
  const line = before.split('\n').length;
  const column = before.length - before.lastIndexOf('\n');
  return `${short} (line ${line}, column ${column})`;
}
