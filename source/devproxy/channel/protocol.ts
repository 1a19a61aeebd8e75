/**
 * The page channel's wire format: JSON text frames over the WebSocket at CHANNEL_PATH. The page
 * script (page/) writes PageMessage and reads ProxyMessage; the proxy (channel/) the reverse.
 * Everything from a page is untrusted: the proxy validates each message with these schemas,
 * caps its size and rate, and drops what fails.
 */
import {z} from 'zod';

const text = (max: number) => z.string().max(max);

export const pageMessage = z.discriminatedUnion('t', [
  /** First message of a connection; again after every reconnect. */
  z.object({t: z.literal('hello'), session: text(64).min(1), url: text(4096), title: text(1024), loadedAt: z.number(), userAgent: text(512).optional()}),
  /** pushState/replaceState/popstate/hashchange. */
  z.object({t: z.literal('navigate'), url: text(4096), title: text(1024)}),
  /** window.onerror / unhandledrejection. */
  z.object({
    t: z.literal('error'),
    message: text(4096),
    category: text(256).optional(),
    stack: text(16384).optional(),
    url: text(4096),
    timestamp: z.number(),
  }),
  /** __devtool.log(level, message, data). */
  z.object({
    t: z.literal('log'),
    level: z.enum(['error', 'warn', 'info', 'log', 'debug']),
    message: text(4096),
    data: z.unknown().optional(),
    url: text(4096),
    timestamp: z.number(),
  }),
  /** A click, key or scroll (throttled by the page to one a second). */
  z.object({t: z.literal('interaction'), kind: z.enum(['click', 'key', 'scroll', 'input']), timestamp: z.number()}),
  /** The answer to an exec. `value` is JSON-safe (cycles and functions replaced by the page). */
  z.object({t: z.literal('result'), id: text(64), ok: z.boolean(), value: z.unknown().optional(), error: text(4096).optional()}),
]);

export type PageMessage = z.infer<typeof pageMessage>;

export type ProxyMessage = {t: 'exec'; id: string; code: string; timeoutMs: number};

/** Largest frame the proxy reads from a page. */
export const MAX_PAGE_FRAME = 256 * 1024;
