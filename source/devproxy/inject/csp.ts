/**
 * Content-Security-Policy adjusted so the page script runs and reaches the channel, and nothing
 * else the page allows or forbids changes. Each policy of a header (comma-separated) must allow
 * both, so each is adjusted.
 * - Script: the directive that governs <script> elements is script-src-elem, else script-src, else
 *   default-src (none of them: anything runs). Our nonce is added to it, unless it already allows
 *   inline scripts without nonces: 'unsafe-inline' with no nonce or hash (CSP3 ignores
 *   'unsafe-inline' once one is present, and so would break the page's own inline scripts if we
 *   added ours). 'strict-dynamic' also disables 'unsafe-inline', so it gets the nonce.
 * - Channel: connect-src, else default-src, gets the proxy's ws: origin.
 */
export function allowPageScript(header: string, nonce: string, channelOrigin: string): string {
  return header
    .split(',')
    .map((policy) => adjustPolicy(policy, nonce, channelOrigin))
    .join(',');
}

interface Directive {
  name: string;
  sources: string[];
}

function adjustPolicy(policy: string, nonce: string, channelOrigin: string): string {
  const directives: Directive[] = policy
    .split(';')
    .map((text) => text.trim().split(/\s+/))
    .filter((tokens) => tokens[0] !== '')
    .map(([name, ...sources]) => ({name: name!.toLowerCase(), sources}));
  const find = (...names: string[]) => names.map((name) => directives.find((directive) => directive.name === name)).find(Boolean);
  const script = find('script-src-elem', 'script-src', 'default-src');
  if (script && !allowsInline(script.sources)) addSource(script, `'nonce-${nonce}'`);
  const connect = find('connect-src', 'default-src');
  if (connect) addSource(connect, channelOrigin);
  return directives.map((directive) => [directive.name, ...directive.sources].join(' ')).join('; ');
}

function allowsInline(sources: string[]): boolean {
  let unsafeInline = false;
  for (const source of sources) {
    const lower = source.toLowerCase();
    if (lower === "'unsafe-inline'") unsafeInline = true;
    else if (lower.startsWith("'nonce-") || lower.startsWith("'sha256-") || lower.startsWith("'sha384-") || lower.startsWith("'sha512-") || lower === "'strict-dynamic'")
      return false;
  }
  return unsafeInline;
}

function addSource(directive: Directive, source: string): void {
  // 'none' alone means nothing; beside another source it is an error that blocks everything.
  directive.sources = directive.sources.filter((existing) => existing.toLowerCase() !== "'none'");
  if (!directive.sources.includes(source)) directive.sources.push(source);
}
