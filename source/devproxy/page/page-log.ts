/** __devtool.log(level, message, data): the page's own messages to the proxy (error and warn reach get_errors as browser:custom). */
import {failure, primitive} from './primitive.js';

export const LOG_LEVELS = ['error', 'warn', 'info', 'log', 'debug'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

type LogSink = (level: LogLevel, message: string, data: unknown) => void;
let sink: LogSink | undefined;

/** The channel client takes the log's messages once it exists. */
export function sendLogsTo(target: LogSink): void {
  sink = target;
}

export const pageLog = {
  log: primitive(
    'level, message, data?',
    `Sends a message to the proxy log; level is one of ${LOG_LEVELS.join(', ')} (error and warn become browser:custom errors)`,
    (level: unknown, message: unknown, data?: unknown) => {
      if (typeof level !== 'string' || !(LOG_LEVELS as readonly string[]).includes(level)) return failure(`level must be one of ${LOG_LEVELS.join(', ')}`);
      if (message === undefined) return failure('message is required');
      const text = typeof message === 'string' ? message : message instanceof Error ? `${message.name}: ${message.message}` : (JSON.stringify(message) ?? String(message));
      if (!sink) return failure('not connected to the proxy');
      sink(level as LogLevel, text, data);
      return {sent: true};
    },
  ),
};
