/** Miniflux's defaults: a slow or huge origin costs one worker 20 s and 15 MB at most. */
export const DEFAULT_TIMEOUT_MS = 20_000;
export const DEFAULT_MAX_BYTES = 15 * 1024 * 1024;
export const DEFAULT_MAX_REDIRECTS = 5;
