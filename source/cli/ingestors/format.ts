import type {Ingestor, IngestorTestResult, TestedStatus} from '../../feeds/ingestors/types.js';
import {clip, formatDate, formatTable} from '../../text/table.js';
import {toTerminalLine} from '../../text/terminal-safe.js';

/** `workbench ingestors list`: one row each, then why any is not ok. */
export function formatIngestors(ingestors: Ingestor[]): string {
  if (ingestors.length === 0) return 'no ingestors yet · add one with `workbench ingestors add mastodon --config \'{"instance": "https://mastodon.social", "hashtag": "rust"}\'`\n';
  const rows = ingestors.map((item) => [
    String(item.id),
    `${item.kind} ${item.network}`,
    item.status,
    item.digestMode === 'realtime' ? 'realtime' : `${item.digestMode} (${item.pendingDigestCount} pending)`,
    String(item.filterThreshold),
    item.llmEnabled ? 'on' : 'off',
    item.nextFetchAt ? formatDate(item.nextFetchAt) : '-',
    clip(toTerminalLine(item.title), 48),
  ]);
  const table = formatTable(['ID', 'KIND', 'STATUS', 'DIGEST', 'THRESHOLD', 'LLM', 'NEXT FETCH', 'TITLE'], rows);
  const notes = ingestors.filter((item) => item.statusMessage).map((item) => `ingestor ${item.id}: ${clip(toTerminalLine(item.statusMessage!), 300)}\n`);
  return table + (notes.length ? `\n${notes.join('')}` : '');
}

/** One ingestor after add/edit. */
export function formatIngestor(item: Ingestor, verb: string): string {
  const digest = item.digestMode === 'realtime' ? 'realtime' : `${item.digestMode} digests`;
  return `${verb} ingestor ${item.id} "${toTerminalLine(item.title)}" · ${item.kind} (${item.network}) · every ${item.fetchIntervalMin} min · ${digest} · threshold ${item.filterThreshold} · model ${item.llmEnabled ? 'on' : 'off'} · feed ${item.feedId}\n`;
}

/** `workbench ingestors test`: kept then dropped, best first, each with its score and reasons. */
export function formatTest(result: IngestorTestResult): string {
  const lines = [`fetched ${result.fetched} · kept ${result.kept.length} · dropped ${result.dropped.length} · model ${llmLine(result)}`];
  for (const [title, list] of [
    ['kept', result.kept],
    ['dropped', result.dropped],
  ] as const) {
    if (list.length === 0) continue;
    lines.push('', `${title}:`);
    for (const status of [...list].sort((a, b) => b.score - a.score)) lines.push(...statusLines(status));
  }
  return `${lines.join('\n')}\n`;
}

export function statusLines(status: TestedStatus): string[] {
  return [
    `  ${status.score.toFixed(2)}  ${clip(toTerminalLine(status.author), 32)}  ${clip(toTerminalLine(status.text), 100)}`,
    ...status.reasons.map((reason) => `          ${reason.effect >= 0 ? '+' : '−'}${Math.abs(reason.effect).toFixed(2)} ${clip(toTerminalLine(reason.detail), 110)}`),
  ];
}

function llmLine(result: IngestorTestResult): string {
  const {llm} = result;
  if (llm.state === 'off') return 'off';
  const base = `${llm.state} (${llm.calls} call${llm.calls === 1 ? '' : 's'}, ${llm.cached} cached)`;
  return llm.problem ? `${base}: ${toTerminalLine(llm.problem)}` : base;
}
