import type {FetchOptions} from '../contracts.js';

/**
 * Validators go back exactly as the origin sent them (weak ETags, odd date formats included):
 * origins compare them byte for byte, so normalising one turns every poll into a full download.
 */
export function conditionalHeaders(options: Pick<FetchOptions, 'etag' | 'lastModified'>): Record<string, string> {
  const headers: Record<string, string> = {};
  if (options.etag) headers['if-none-match'] = options.etag;
  if (options.lastModified) headers['if-modified-since'] = options.lastModified;
  return headers;
}
