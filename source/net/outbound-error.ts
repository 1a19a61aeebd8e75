/**
 * Why an outbound request failed, for the caller to map onto its own error (the fetcher's
 * feed_unreachable and payload_too_large, the CLI's "reader not reachable"). The message is
 * one line, fit for a user, and never names a port that was not in the URL's own text.
 */
export type OutboundFailure =
  /** The address policy refused the target (address-policy.ts); nothing was sent. */
  | 'refused'
  /** The deadline passed (connect, headers or body). */
  | 'timeout'
  /** The caller's signal aborted. */
  | 'cancelled'
  /** Refused connection, reset, unknown host, TLS error, a body that does not decode. */
  | 'network'
  /** The body (on the wire, or once decompressed) is over the cap. */
  | 'too_large';

export class OutboundError extends Error {
  constructor(
    readonly kind: OutboundFailure,
    message: string,
    readonly url: string,
    /** The system error code (ECONNREFUSED, ENOTFOUND…) of a network failure, when there is one. */
    readonly code?: string,
  ) {
    super(message);
    this.name = 'OutboundError';
  }
}

export function isOutboundError(value: unknown): value is OutboundError {
  return value instanceof OutboundError;
}
