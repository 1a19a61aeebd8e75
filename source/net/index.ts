// The one outbound HTTP client (http-client.ts) and its address policy (address-policy.ts).
export {AddressGuard, literalRefusal, targetRefusal, type AddressPolicy} from './address-policy.js';
export {
  Deadline,
  openRequest,
  sendRequest,
  formatBytes,
  formatSeconds,
  type HeaderSource,
  type OutboundRequest,
  type OutboundResponse,
  type SimpleRequest,
  type SimpleResponse,
} from './http-client.js';
export {classifyAddress, hostAddress, isThisHostAddress, type AddressClass} from './ip-address.js';
export {OutboundError, isOutboundError, type OutboundFailure} from './outbound-error.js';
export {checkedLookup, systemNetwork, type Network, type ResolvedAddress} from './safe-lookup.js';
export {crossSiteRefusal, hostRefusal, isWriteMethod, type LocalConnection, type SiteHeaders} from './local-guard.js';
export {guardedFetch} from './guarded-fetch.js';
