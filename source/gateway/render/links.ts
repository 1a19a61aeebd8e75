/** Where the hub takes subscription requests (the `rel="hub"` link of every representation). */
export const HUB_PATH = '/api/websub';

import {representationUrl} from '../../syndication/index.js';
import type {LinkBase, Representation} from '../types.js';

/** Where a representation of `/<name>` is fetched: `<baseUrl>/<name>` (RSS, the default, and the landing page) or `…?format=atom`. */
export function selfUrl(links: LinkBase, name: string, representation: Representation): string {
  return representationUrl(`${links.baseUrl}/${encodeURIComponent(name)}`, representation);
}

/** The gateway's WebSub hub, announced by every representation as `rel="hub"`. */
export function hubUrl(links: LinkBase): string {
  return `${links.baseUrl}${HUB_PATH}`;
}
