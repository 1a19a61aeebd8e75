import type {LookupFunction} from 'node:net';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/**
 * The network as the outbound client sees it: name resolution and, for tests, where a checked
 * address is really dialled. Tests inject one that answers `public.test` with a public-looking
 * address and dials 127.0.0.1 instead, so the policy is proven without a packet leaving the host.
 */
export interface Network {
  /** Every address of a host name; throws (ENOTFOUND…) when there is none. */
  resolve(hostname: string): Promise<ResolvedAddress[]>;
  /** The address actually dialled for a checked one (default: itself). */
  dial?(address: string): string;
}

/** The system resolver (getaddrinfo, as node:http does by default: /etc/hosts, then DNS). */
export const systemNetwork: Network = {
  async resolve(hostname) {
    const {lookup} = await import('node:dns/promises');
    const answers = await lookup(hostname, {all: true, verbatim: true});
    return answers.map(({address, family}) => ({address, family: family === 6 ? 6 : 4}));
  },
};

/**
 * A `lookup` for node:net that resolves through `resolve` and hands the socket only the
 * addresses `check` lets through: the check is made on the very address that is connected to,
 * so a name that answers a public address first and 127.0.0.1 later cannot slip past it.
 * Handles both shapes node asks for (one address, or all of them for happy eyeballs).
 */
export function checkedLookup(resolve: (hostname: string) => Promise<ResolvedAddress[]>): LookupFunction {
  return ((hostname: string, options: {family?: number | string; all?: boolean}, callback: (error: Error | null, address: unknown, family?: number) => void) => {
    resolve(hostname).then(
      (answers) => {
        const family = options.family === 4 || options.family === 'IPv4' ? 4 : options.family === 6 || options.family === 'IPv6' ? 6 : 0;
        const usable = family ? answers.filter((answer) => answer.family === family) : answers;
        if (usable.length === 0) {
          callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), {code: 'ENOTFOUND', hostname}), options.all ? [] : '', 0);
          return;
        }
        if (options.all)
          callback(
            null,
            usable.map(({address, family: f}) => ({address, family: f})),
          );
        else callback(null, usable[0]!.address, usable[0]!.family);
      },
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), options.all ? [] : '', 0),
    );
  }) as LookupFunction;
}
