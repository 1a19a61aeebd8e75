/**
 * How a proxy reads a page's scripts and their maps for `createStackMapper`: the page names them
 * on the proxy's origin; they are fetched from the target directly (not through the proxy, which
 * would inject and log them), bounded in size, and nothing but a 2xx counts.
 */
export function targetFetchText(target: string): (url: string, options: {signal: AbortSignal; maxBytes: number}) => Promise<string | undefined> {
  const origin = new URL(target);
  return async (url, {signal, maxBytes}) => {
    const at = new URL(url);
    at.protocol = origin.protocol;
    at.host = origin.host;
    const response = await fetch(at, {signal, redirect: 'manual'});
    if (!response.ok || !response.body || Number(response.headers.get('content-length') ?? 0) > maxBytes) {
      await response.body?.cancel();
      return undefined;
    }
    const chunks: Uint8Array[] = [];
    let size = 0;
    for await (const chunk of response.body) {
      size += chunk.byteLength;
      // Leaving the loop cancels the body.
      if (size > maxBytes) return undefined;
      chunks.push(chunk);
    }
    return Buffer.concat(chunks).toString('utf8');
  };
}
