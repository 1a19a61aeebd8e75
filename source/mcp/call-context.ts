import type {RequestHandlerExtra} from '@modelcontextprotocol/sdk/shared/protocol.js';
import type {ServerNotification, ServerRequest} from '@modelcontextprotocol/sdk/types.js';
import {throttleProgress} from '../tools/call-progress.js';
import type {ToolCall} from '../tools/registry-types.js';

/**
 * One tools/call as a tool sees it: the SDK's abort signal (a client's notifications/cancelled),
 * and progress sent as notifications/progress under the request's progressToken, throttled —
 * or nowhere when the client gave no token. `close` when the answer is ready: nothing follows it.
 */
export function callContext(extra: RequestHandlerExtra<ServerRequest, ServerNotification>): ToolCall & {close(): void} {
  const token = extra._meta?.progressToken;
  // params-guard.ts refuses a token of another type before it gets here; this keeps a bad one from being echoed anyway.
  const valid = typeof token === 'string' || (typeof token === 'number' && Number.isInteger(token));
  const throttled = valid
    ? throttleProgress((update) => {
        void extra.sendNotification({method: 'notifications/progress', params: {progressToken: token, ...update}}).catch(() => undefined);
      })
    : undefined;
  return {
    signal: extra.signal,
    progress: (progress, total, message) => throttled?.progress(progress, total, message),
    close: () => throttled?.close(),
  };
}
