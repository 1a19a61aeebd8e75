import type {Server} from '@modelcontextprotocol/sdk/server/index.js';
import {LoggingLevelSchema, SetLevelRequestSchema, type LoggingLevel} from '@modelcontextprotocol/sdk/types.js';
import {describeStatus} from '../processes/describe.js';
import type {ProcessInfo} from '../processes/types.js';
import {toTerminalLine} from '../text/terminal-safe.js';
import {Coalescer} from './live/coalesce.js';
import type {DaemonFeed} from './live/feed.js';

/** Before a client sets a level: info and above (a process's clean exit is worth a line, debug is not). */
export const DEFAULT_LOG_LEVEL: LoggingLevel = 'info';
/** One warning per source at most this often: a target that is down fails every request, the client hears it once a second. */
export const LOG_COALESCE_MS = 1000;

const SEVERITY = new Map(LoggingLevelSchema.options.map((level, index) => [level, index]));

interface Entry {
  level: LoggingLevel;
  data: Record<string, unknown>;
  /** Like entries left out since the last one sent. */
  repeats: number;
}

/** A process's end as a log message: a crash or a non-zero exit is an error, a clean exit or a stop is information. */
export function processEndMessage(info: ProcessInfo): {level: LoggingLevel; message: string} | undefined {
  const name = toTerminalLine(info.id);
  if (info.status === 'crashed') return {level: 'error', message: `process ${name} crashed (${info.signal ?? 'signal'}): ${toTerminalLine(info.command.slice(0, 200))}`};
  if (info.status === 'exited' && info.exitCode !== 0) return {level: 'error', message: `process ${name} ${describeStatus(info)}: ${toTerminalLine(info.command.slice(0, 200))}`};
  if (info.status === 'exited') return {level: 'info', message: `process ${name} exited 0`};
  if (info.status === 'stopped') return {level: 'info', message: `process ${name} stopped`};
  return undefined;
}

/**
 * MCP logging for one server: `logging/setLevel`, and the daemon's warnings — a process that
 * crashed or exited non-zero, a proxy whose target cannot be reached, the daemon lost — as
 * `notifications/message` at or above the level the client set. Each source is coalesced, so a
 * storm of failures is a bounded rate of messages (the last one says how many it stands for).
 */
export class McpLogging {
  private level: LoggingLevel = DEFAULT_LOG_LEVEL;
  private readonly latest = new Map<string, Entry>();
  private readonly coalescer = new Coalescer<string>((key) => this.flush(key), LOG_COALESCE_MS);

  constructor(
    private readonly server: Server,
    feed: DaemonFeed,
  ) {
    server.setRequestHandler(SetLevelRequestSchema, (request) => {
      this.level = request.params.level;
      return {};
    });
    const ended = new Map<string, number>();
    feed.on('processes', ({process: info}) => {
      const end = processEndMessage(info);
      // One message per run that ended (a process's state can be told twice).
      if (!end || ended.get(info.id) === info.run) return;
      ended.set(info.id, info.run);
      this.log(`process:${info.id}`, end.level, {message: end.message, process_id: info.id, status: info.status, exit_code: info.exitCode ?? null});
    });
    feed.on('traffic', ({proxyId, entries}) => {
      for (const entry of entries) {
        if (entry.type !== 'diagnostic' || entry.level !== 'error') continue;
        this.log(`proxy:${proxyId}:${entry.category}`, 'warning', {
          message: `proxy ${toTerminalLine(proxyId)}: ${toTerminalLine(entry.message)}`,
          proxy_id: proxyId,
          category: entry.category,
        });
      }
    });
    feed.onLost(() =>
      this.log('daemon', 'critical', {message: 'lost the workbench daemon: processes, proxies and the inbox are not watched until the next tool call starts it again'}),
    );
  }

  /** Queues a message for its source; sent now, or at the end of the source's interval with the count it stands for. */
  log(key: string, level: LoggingLevel, data: Record<string, unknown>): void {
    if (SEVERITY.get(level)! < SEVERITY.get(this.level)!) return;
    const before = this.latest.get(key);
    this.latest.set(key, {level, data, repeats: before ? before.repeats + 1 : 0});
    this.coalescer.touch(key);
  }

  close(): void {
    this.coalescer.close();
    this.latest.clear();
  }

  private flush(key: string): void {
    const entry = this.latest.get(key);
    if (!entry) return;
    this.latest.delete(key);
    const data = entry.repeats ? {...entry.data, repeated: entry.repeats} : entry.data;
    void this.server.sendLoggingMessage({level: entry.level, logger: 'workbench', data}).catch(() => undefined);
  }
}
