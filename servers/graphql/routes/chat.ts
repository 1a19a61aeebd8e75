import type {FastifyInstance, FastifyReply, FastifyRequest} from 'fastify';
import {HTTP_STATUS, isWorkbenchError, WorkbenchError} from '../../../source/core/errors.js';
import {verifyBearer} from '../../../source/gql/auth/index.js';
import type {Chat, ChatEvent} from '../../../source/gql/chat/chat-service.js';
import type {HttpHandlerOptions, ServedGraphql} from '../../../source/gql/request/index.js';
import type {UserContext} from '../../../source/gql/types.js';
import {noQuery} from '../../kit/index.js';

export interface ChatRouteOptions extends HttpHandlerOptions {
  served: ServedGraphql;
  chat: Chat;
}

// `{conversationId?, message}`: the shape is checked here, the values by the chat (it says which is wrong).
const chatBody = {
  type: 'object',
  additionalProperties: false,
  properties: {conversationId: {type: ['integer', 'string', 'null']}, message: {}},
} as const;

const planParams = {type: 'object', additionalProperties: false, required: ['id'], properties: {id: {type: 'string', maxLength: 100}}} as const;

/**
 * The chat endpoint (source/gql/chat/README.md) beside GraphQL at `<GqlService:Path>/chat`:
 * `POST` a message and read the answer as server-sent events, `GET …/conversations`, and
 * `POST …/plans/:id/approve`. The user is verified exactly as the GraphQL endpoint verifies it,
 * and the kit's Host/Origin guard stands in front of all three.
 */
export async function chatRoutes(app: FastifyInstance, options: ChatRouteOptions): Promise<void> {
  const {settings} = options.served;
  const verify = options.verify ?? verifyBearer;
  const base = `${settings.path.replace(/\/+$/, '')}/chat`;
  const userOf = async (request: FastifyRequest, reply: FastifyReply): Promise<UserContext> => {
    try {
      return await verify(request.headers.authorization, settings);
    } catch (error) {
      if (isWorkbenchError(error) && HTTP_STATUS[error.code] === 401) reply.header('www-authenticate', 'Bearer error="invalid_token"');
      else if (!isWorkbenchError(error)) options.onInternalError?.(error);
      throw error;
    }
  };

  app.post(base, {schema: {querystring: noQuery, body: chatBody}}, async (request, reply) => {
    const user = await userOf(request, reply);
    const accepted = await options.chat.send(user, (request.body ?? {}) as {conversationId?: unknown; message?: unknown});
    reply.hijack();
    const raw = reply.raw;
    raw.writeHead(200, {'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', 'x-accel-buffering': 'no'});
    // A client that goes away stops the model's turn (the loop stores an error row and ends).
    const controller = new AbortController();
    raw.on('close', () => {
      if (!raw.writableEnded) controller.abort();
    });
    await accepted.run((event: ChatEvent) => {
      if (!raw.destroyed) raw.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
    }, controller.signal);
    raw.end();
  });

  app.get(`${base}/conversations`, {schema: {querystring: noQuery}}, async (request, reply) => {
    const user = await userOf(request, reply);
    return {conversations: await options.chat.conversations(user)};
  });

  app.post(`${base}/plans/:id/approve`, {schema: {querystring: noQuery, params: planParams}}, async (request, reply) => {
    const user = await userOf(request, reply);
    const {id} = request.params as {id: string};
    if (id.trim() === '') throw new WorkbenchError('invalid_argument', 'the plan id is empty');
    return {approval: await options.chat.approvePlan(user, id)};
  });
}
