import {hostAddress, isThisHostAddress, systemNetwork, type Network} from '../../net/index.js';

function portOf(url: URL): string {
  return url.port || (url.protocol === 'https:' ? '443' : '80');
}

// The addresses a URL's host names; a name that does not resolve names none (the fetch fails on it anyway).
async function addressesOf(url: URL, network: Network): Promise<string[]> {
  const literal = hostAddress(url.hostname);
  if (literal !== null) return [literal];
  try {
    return (await network.resolve(url.hostname)).map((answer) => answer.address);
  } catch {
    return [];
  }
}

/**
 * Whether a callback leads back into the gateway itself: the origin of one of the URLs it is
 * reached at (its --public-url, its listening address), or, when one of those is on this host,
 * the same port on any address of this host (localhost, 127.0.0.2, [::1], a name resolving to
 * them). A hub that verifies and delivers to itself would POST into its own API (`/api/channels`)
 * on a subscriber's say-so. Names are resolved through `network`, as the connection would be.
 */
export async function reachesGateway(callback: URL, ownUrls: readonly string[], network: Network = systemNetwork): Promise<boolean> {
  const own = ownUrls.map((text) => new URL(text));
  if (own.some((url) => url.origin === callback.origin)) return true;
  const samePortHere = own.filter((url) => portOf(url) === portOf(callback) && isThisHostAddress(hostAddress(url.hostname) ?? (url.hostname === 'localhost' ? '127.0.0.1' : '')));
  if (samePortHere.length === 0) return false;
  return (await addressesOf(callback, network)).some(isThisHostAddress);
}
