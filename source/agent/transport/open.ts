import {WorkbenchError} from '../../core/errors.js';
import {AddressGuard, isOutboundError} from '../../net/index.js';
import type {ModelTransport, ResolvedCredential, Transport} from '../types.js';
import {chatCompletionsTransport} from './chat-completions.js';
import {CHAT_COMPLETIONS_BASE, DEFAULT_MODELS, MESSAGES_BASE, messagesEndpoint} from './endpoint.js';
import {messagesTransport} from './messages.js';

/** A model may think for a while before its first byte; past this the user is told, not left waiting. */
export const MODEL_TIMEOUT_MS = 10 * 60_000;

export interface OpenTransportOptions {
  transport: Transport;
  baseUrl?: string;
  model?: string;
  credential: ResolvedCredential;
  timeoutMs?: number;
}

/**
 * The transport for a credential: the base URL is the flag's, else the sign-in's, else the
 * vendor's; a messages base with a version segment is refused with the explanation; and the
 * base's host is checked against the outbound address policy (loopback and private addresses are
 * fine — local model servers are normal — link-local and cloud metadata addresses never are).
 */
export async function openTransport(options: OpenTransportOptions): Promise<{transport: ModelTransport; model: string}> {
  const baseUrl = options.baseUrl ?? options.credential.signIn?.baseUrl ?? (options.transport === 'messages' ? MESSAGES_BASE : CHAT_COMPLETIONS_BASE);
  if (options.transport === 'messages') messagesEndpoint(baseUrl);
  await checkAddress(baseUrl);
  const timeoutMs = options.timeoutMs ?? MODEL_TIMEOUT_MS;
  const transport =
    options.transport === 'messages'
      ? messagesTransport({baseUrl, credential: options.credential, timeoutMs})
      : chatCompletionsTransport({baseUrl, credential: options.credential, timeoutMs});
  return {transport, model: options.model ?? DEFAULT_MODELS[options.transport]};
}

async function checkAddress(baseUrl: string): Promise<void> {
  const url = new URL(baseUrl);
  const guard = new AddressGuard({allowPrivate: true});
  try {
    if (guard.checkLiteral(url) !== null) return;
    await new Promise<void>((resolve, reject) => guard.lookupFor(url)(url.hostname, {all: true}, (error) => (error ? reject(error) : resolve())));
  } catch (error) {
    if (isOutboundError(error)) throw new WorkbenchError('forbidden', `the model endpoint ${baseUrl} is refused: ${error.message}`);
    // A name that does not resolve is reported by the request itself, with the endpoint named.
  }
}
