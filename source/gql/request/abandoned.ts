import type {ServerResponse} from 'node:http';

/**
 * A signal that aborts when the HTTP response closes before it was written: the client went away
 * (gave up, timed out, lost its connection), so the statement running for it is cancelled and its
 * connection goes back to the pool. `context.reply.raw` is where graphql-http's fastify adapter
 * keeps the response; without one (another framework, a test calling the handler) nothing aborts.
 */
export function abandonedSignal(context: unknown): AbortSignal | undefined {
  const response = (context as {reply?: {raw?: ServerResponse}} | undefined)?.reply?.raw;
  if (!response || typeof response.once !== 'function') return undefined;
  const controller = new AbortController();
  if (response.destroyed && !response.writableFinished) controller.abort();
  else
    response.once('close', () => {
      if (!response.writableFinished) controller.abort();
    });
  return controller.signal;
}
