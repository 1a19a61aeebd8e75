import * as acp from '@agentclientprotocol/sdk';
import {describeError} from '../../core/errors.js';
import {toTerminalLine} from '../../text/terminal-safe.js';

// A `data` shown as JSON is cut here: it says what went wrong, the agent's log says the rest.
const MAX_DATA = 300;

/**
 * One line for an error the agent answered with: the JSON-RPC message and what its `data` adds.
 * Agents built on the ACP SDK answer any failure of theirs with `-32603 Internal error` and put
 * the reason in `data.details` (or `data.message`): without it the user sees only "Internal error".
 */
export function describeAgentError(error: unknown): string {
  const message = describeError(error);
  if (!(error instanceof acp.RequestError) || error.data === undefined || error.data === null) return message;
  const detail = dataText(error.data);
  if (!detail || message.includes(detail)) return message;
  return `${message}: ${detail}`;
}

function dataText(data: unknown): string {
  if (typeof data === 'string') return firstLine(data);
  if (typeof data !== 'object' || data === null) return firstLine(String(data));
  const record = data as Record<string, unknown>;
  const said = [record.message, record.details].filter((value): value is string => typeof value === 'string' && value.trim() !== '').map(firstLine);
  if (said.length > 0) return [...new Set(said)].join(': ');
  const json = JSON.stringify(data);
  if (json === '{}' || json === '[]') return '';
  return firstLine(json.length > MAX_DATA ? `${json.slice(0, MAX_DATA)}…` : json);
}

const firstLine = (text: string) => toTerminalLine(text.trim().split('\n')[0] ?? '');
