import ipaddr from 'ipaddr.js';

/**
 * Where an address leads, for the address policy (address-policy.ts):
 * - `link-local`: 169.254.0.0/16, fe80::/10 and the cloud metadata service (fd00:ec2::254):
 *   never fetched.
 * - `private`: loopback, RFC 1918, unique local, CGNAT, unspecified (0.0.0.0 reaches this host),
 *   multicast, broadcast and every other special range: only when the user named it.
 * - `public`: everything else.
 */
export type AddressClass = 'public' | 'private' | 'link-local';

// AWS's IPv6 instance metadata endpoint sits in the unique-local range, not the link-local one.
const METADATA_V6 = ['fd00:ec2::254'];
// Anycast services on the internet, not inside anyone's network.
const PUBLIC_V4_RANGES = new Set(['unicast', 'as112', 'amt']);
const PUBLIC_V6_RANGES = new Set(['unicast', 'as112v6', 'amt']);

/**
 * The IP address a URL host names, normalised, or null for a DNS name. WHATWG URL already turns
 * `2130706433`, `0x7f.1`, `017700000001` and `127.1` into `127.0.0.1` and `[::ffff:127.0.0.1]`
 * into `[::ffff:7f00:1]`; this strips the brackets and also reads hosts that did not come
 * through URL (ipaddr.js accepts the same legacy IPv4 forms).
 */
export function hostAddress(hostname: string): string | null {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname.replace(/\.$/, '');
  if (!ipaddr.isValid(bare)) return null;
  try {
    return ipaddr.parse(bare).toString();
  } catch {
    return null;
  }
}

/** The class of an IP address in any spelling; IPv4 inside IPv6 (mapped, compatible, NAT64, 6to4) counts as the IPv4. */
export function classifyAddress(address: string): AddressClass {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(address.replace(/^\[|\]$/g, ''));
  } catch {
    // Not an address at all: never treat the unknown as public.
    return 'private';
  }
  if (parsed.kind() === 'ipv4') return classifyV4(parsed as ipaddr.IPv4);
  const v6 = parsed as ipaddr.IPv6;
  const embedded = embeddedV4(v6);
  if (embedded) return classifyV4(embedded);
  const range = v6.range();
  if (range === 'linkLocal') return 'link-local';
  if (METADATA_V6.some((metadata) => ipaddr.parse(metadata).toString() === v6.toString())) return 'link-local';
  return PUBLIC_V6_RANGES.has(range) ? 'public' : 'private';
}

function classifyV4(v4: ipaddr.IPv4): AddressClass {
  const range = v4.range();
  if (range === 'linkLocal') return 'link-local';
  return PUBLIC_V4_RANGES.has(range) ? 'public' : 'private';
}

/** The IPv4 address carried inside an IPv6 one: ::ffff:a.b.c.d, ::a.b.c.d, 64:ff9b::a.b.c.d, 2002:aabb:ccdd::. */
function embeddedV4(v6: ipaddr.IPv6): ipaddr.IPv4 | null {
  const range = v6.range();
  const parts = v6.parts;
  if (range === 'ipv4Mapped' || range === 'rfc6145' || range === 'rfc6052') return fromWords(parts[6]!, parts[7]!);
  if (range === '6to4') return fromWords(parts[1]!, parts[2]!);
  // IPv4-compatible (::a.b.c.d, deprecated but still routed by some stacks); :: and ::1 are themselves.
  if (parts.slice(0, 6).every((part) => part === 0) && (parts[6]! !== 0 || parts[7]! > 1)) return fromWords(parts[6]!, parts[7]!);
  return null;
}

function fromWords(high: number, low: number): ipaddr.IPv4 {
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
}

/**
 * Whether an address in any spelling reaches this very host: loopback (127.0.0.0/8, ::1) or
 * unspecified (0.0.0.0 and :: are dialled as this host), IPv4 inside IPv6 included.
 */
export function isThisHostAddress(address: string): boolean {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(address.replace(/^\[|\]$/g, ''));
  } catch {
    return false;
  }
  const v4 = parsed.kind() === 'ipv4' ? (parsed as ipaddr.IPv4) : embeddedV4(parsed as ipaddr.IPv6);
  const range = (v4 ?? parsed).range();
  return range === 'loopback' || range === 'unspecified';
}
