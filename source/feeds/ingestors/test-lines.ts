import {clip} from '../../text/table.js';
import {toTerminalLine} from '../../text/terminal-safe.js';
import type {IngestorTestResult, TestedStatus} from './types.js';

/**
 * A test cycle's outcome as lines of text, terminal-safe (the CLI prints them, the Feeds pane
 * shows them): a summary, then kept and dropped statuses best first, each with its score and the
 * reasons behind it, indented.
 */
export function testLines(result: IngestorTestResult): string[] {
  const lines = [`fetched ${result.fetched} · kept ${result.kept.length} · dropped ${result.dropped.length} · model ${modelLine(result)}`];
  for (const [title, list] of [
    ['kept', result.kept],
    ['dropped', result.dropped],
  ] as const) {
    if (list.length === 0) continue;
    lines.push('', `${title}:`);
    for (const status of [...list].sort((a, b) => b.score - a.score)) lines.push(...statusLines(status));
  }
  return lines;
}

export function statusLines(status: TestedStatus): string[] {
  return [
    `  ${status.score.toFixed(2)}  ${clip(toTerminalLine(status.author), 32)}  ${clip(toTerminalLine(status.text), 100)}`,
    ...status.reasons.map((reason) => `          ${reason.effect >= 0 ? '+' : '−'}${Math.abs(reason.effect).toFixed(2)} ${clip(toTerminalLine(reason.detail), 110)}`),
  ];
}

function modelLine(result: IngestorTestResult): string {
  const {llm} = result;
  if (llm.state === 'off') return 'off';
  const base = `${llm.state} (${llm.calls} call${llm.calls === 1 ? '' : 's'}, ${llm.cached} cached)`;
  return llm.problem ? `${base}: ${toTerminalLine(llm.problem)}` : base;
}
