import type {Page} from 'playwright-core';
import {targetRefusal, type AddressPolicy} from '../net/index.js';

/**
 * Holds every request the page makes to the address policy of source/net, as the outbound client
 * does for its own: a link-local or metadata address is never reached, and a page served from a
 * public address may not reach into private or loopback ones (a snapshot of someone else's page
 * must not photograph the developer's own services). A page the user named on a private address
 * (their dev server) may load from private addresses as a browser would.
 * Each host is resolved and judged once per capture. Returns what was refused, for the answer.
 */
export async function guardRequests(page: Page, pageUrl: URL): Promise<string[]> {
  const policy: AddressPolicy = {allowPrivate: (await targetRefusal(pageUrl, {allowPrivate: false})) !== null};
  const verdicts = new Map<string, Promise<string | null>>();
  const refused: string[] = [];
  await page.route('**/*', async (route) => {
    const url = new URL(route.request().url());
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return route.continue().catch(ignoreClosed);
    const key = `${url.protocol}//${url.host}`;
    let verdict = verdicts.get(key);
    if (!verdict) {
      verdict = targetRefusal(url, policy).then((refusal) => refusal?.message ?? null);
      verdicts.set(key, verdict);
    }
    const refusal = await verdict;
    if (refusal === null) return route.continue().catch(ignoreClosed);
    if (refused.length < 20 && !refused.includes(refusal)) refused.push(refusal);
    return route.abort('blockedbyclient').catch(ignoreClosed);
  });
  return refused;
}

// A request still in flight when the capture closes the page has nowhere to go.
function ignoreClosed(): void {}
