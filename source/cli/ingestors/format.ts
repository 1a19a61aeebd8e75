import {testLines} from '../../feeds/ingestors/test-lines.js';
import type {Ingestor, IngestorTestResult} from '../../feeds/ingestors/types.js';
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

/** `workbench ingestors test`: the lines the Feeds pane shows too. */
export function formatTest(result: IngestorTestResult): string {
  return `${testLines(result).join('\n')}\n`;
}
