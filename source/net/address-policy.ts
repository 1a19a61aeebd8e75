import type {LookupFunction} from 'node:net';
import {classifyAddress, hostAddress, type AddressClass} from './ip-address.js';
import {OutboundError} from './outbound-error.js';
import {checkedLookup, systemNetwork, type Network, type ResolvedAddress} from './safe-lookup.js';

/**
 * The address policy of every outbound request (README "Outbound requests"):
 *
 * 1. Link-local and cloud metadata addresses (169.254.0.0/16, fe80::/10, fd00:ec2::254, and the
 *    same addresses written inside IPv6: ::ffff:169.254.169.254, 64:ff9b::a9fe:a9fe…) are never
 *    fetched, whoever asked.
 * 2. A URL the user gave (typed, subscribed to, the reader's --server) may name a private or
 *    loopback host: a developer subscribes to their own dev server.
 * 3. Once a request has reached a public address, nothing it leads to may be private, loopback
 *    or link-local: not a redirect, not a <link> discovered in its page, not a well-known path
 *    probed beside it. A URL found at a public address starts with `allowPrivate: false`.
 *
 * The check is made on the resolved address at connect time (a custom `lookup` handed to the
 * socket), so a DNS name that answers a public address to a first check and 127.0.0.1 to the
 * connection cannot pass it; IP literals, for which node does not call `lookup`, are checked
 * before the request, after normalisation (2130706433, 0x7f.1, [::ffff:7f00:1] are 127.0.0.1).
 * A refusal happens before any packet is sent, so its message is the same whether the port
 * behind it is open or closed.
 */
export interface AddressPolicy {
  /** The first URL may name a private or loopback host (true for a URL the user chose). */
  allowPrivate: boolean;
}

/** One guard per request chain (a request and its redirects): it remembers whether a public address was reached. */
export class AddressGuard {
  private reachedPublic = false;
  readonly network: Network;

  constructor(
    private readonly policy: AddressPolicy,
    network?: Network,
  ) {
    this.network = network ?? systemNetwork;
  }

  /** Whether some hop of this chain connected to a public address (then what it leads to must stay public). */
  get viaPublic(): boolean {
    return this.reachedPublic;
  }

  private get mayReachPrivate(): boolean {
    return this.policy.allowPrivate && !this.reachedPublic;
  }

  /**
   * Checks the host of a URL about to be requested when it is an IP literal; returns null for a
   * name (checked by the lookup at connect time) or the normalised address.
   */
  checkLiteral(url: URL): string | null {
    const literal = hostAddress(url.hostname);
    if (literal === null) return null;
    this.admit(url, url.hostname, [{address: literal, family: literal.includes(':') ? 6 : 4}], true);
    return literal;
  }

  /** The `lookup` for the socket of a request to `url`: resolve, check, then dial. */
  lookupFor(url: URL): LookupFunction {
    return checkedLookup(async (hostname) => {
      const admitted = this.admit(url, hostname, await this.network.resolve(hostname), false);
      const dial = this.network.dial;
      return dial ? admitted.map((answer) => ({address: dial(answer.address), family: hostAddress(dial(answer.address))?.includes(':') ? 6 : 4})) : admitted;
    });
  }

  private admit(url: URL, host: string, answers: ResolvedAddress[], literal: boolean): ResolvedAddress[] {
    const admitted: ResolvedAddress[] = [];
    let refused: AddressClass | undefined;
    for (const answer of answers) {
      const kind = classifyAddress(answer.address);
      if (kind === 'link-local') refused = 'link-local';
      else if (kind === 'private' && !this.mayReachPrivate) refused ??= 'private';
      else admitted.push(answer);
    }
    if (admitted.length === 0) throw refusal(url, host, refused ?? 'private', literal);
    if (admitted.some((answer) => classifyAddress(answer.address) === 'public')) this.reachedPublic = true;
    return admitted;
  }
}

function refusal(url: URL, host: string, kind: AddressClass, literal: boolean): OutboundError {
  const what = kind === 'link-local' ? 'a link-local or cloud metadata address' : 'a private or loopback address';
  const rule = kind === 'link-local' ? 'which is never fetched' : 'which a redirect or link found at a public address may not lead to';
  return new OutboundError('refused', `refused ${host}: ${literal ? 'it is' : 'it resolves to'} ${what}, ${rule}`, url.href);
}

/**
 * Whether the policy refuses `url` as it stands, resolving its host name once through `network`
 * (an IP literal needs no lookup): the refusal, or null. A check ahead of time, for lists shown
 * to a user (discovered feeds); the request itself is checked again at connect time.
 */
export async function targetRefusal(url: URL, policy: AddressPolicy, network?: Network): Promise<OutboundError | null> {
  const guard = new AddressGuard(policy, network);
  try {
    if (guard.checkLiteral(url) !== null) return null;
    await new Promise<void>((resolve, reject) => {
      guard.lookupFor(url)(url.hostname, {all: true}, (error) => (error ? reject(error) : resolve()));
    });
    return null;
  } catch (error) {
    if (error instanceof OutboundError) return error;
    // A name that does not resolve is the fetch's problem, not the policy's.
    return null;
  }
}

/** The refusal of a URL whose host is an IP literal, without any lookup; null for names and admitted addresses. */
export function literalRefusal(url: URL, policy: AddressPolicy): OutboundError | null {
  try {
    new AddressGuard(policy).checkLiteral(url);
    return null;
  } catch (error) {
    if (error instanceof OutboundError) return error;
    throw error;
  }
}
