import {z} from 'zod';

/**
 * The checked shapes of a proxy's parameters, shared by the daemon protocol, the MCP tools and the
 * CLI: a bad id, target or port is refused at the edge with a sentence, before any socket opens.
 */

export const PROXY_ID_PATTERN = /^[A-Za-z0-9._-]{1,64}$/;

export const proxyIdSchema = z.string().min(1).max(64).regex(PROXY_ID_PATTERN, {message: 'use 1–64 letters, digits, ".", "_" or "-"'});

/** An absolute http(s) URL with a host: where the proxy forwards to. */
export const targetUrlSchema = z.string().min(1).max(2048).refine(isHttpUrl, {message: 'use an absolute http(s) URL such as http://127.0.0.1:3000'});

export const portSchema = z.number().int().min(0).max(65_535);

export const logSizeSchema = z.number().int().min(1).max(100_000);

export const TRAFFIC_TYPES = ['http', 'error', 'custom', 'diagnostic', 'page'] as const;

export const trafficTypeSchema = z.enum(TRAFFIC_TYPES);

/** An HTTP status, or 0: a request that failed in transport. */
export const statusCodeSchema = z.number().int().min(0).max(599);

/** How long an exec waits for the page; the page's own loop cannot hold the daemon longer. */
export const EXEC_TIMEOUT_DEFAULT_MS = 5000;
export const execTimeoutSchema = z.number().int().min(1).max(60_000);

export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}
