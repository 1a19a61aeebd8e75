import type {IngestorKind, NetworkSource} from '../types.js';
import {bluesky} from './bluesky.js';
import {mastodon} from './mastodon.js';
import {reddit} from './reddit.js';

/** The network behind each kind (README.md in this folder: each kind's config). */
export const NETWORKS: Record<IngestorKind, NetworkSource> = {
  kind_1: mastodon as unknown as NetworkSource,
  kind_2: bluesky as unknown as NetworkSource,
  kind_3: reddit as unknown as NetworkSource,
};

export function networkOf(kind: IngestorKind): NetworkSource {
  return NETWORKS[kind];
}

export {readRateLimit} from './rate-limit.js';
