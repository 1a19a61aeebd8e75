import type {FastifyInstance, FastifyReply, FastifyRequest} from 'fastify';
import {WorkbenchError} from '../../../source/core/errors.js';
import {HUB_PATH, type Hub} from '../../../source/gateway/websub/index.js';
import {errorResponses, noQuery} from '../../kit/index.js';

const FORM_TYPE = 'application/x-www-form-urlencoded';
/** A subscription form: a 2 KB callback, a topic and a secret under 200 bytes fit many times over. */
export const WEBSUB_FORM_MAX_BYTES = 8 * 1024;

const formBody = {type: 'object', additionalProperties: {type: 'string'}} as const;

/** A form body as fields; a field given twice is refused (which hub.topic would be meant?). */
function readForm(text: string): Record<string, string> {
  const form: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [name, value] of new URLSearchParams(text)) {
    if (Object.hasOwn(form, name)) throw new WorkbenchError('invalid_body', `the form has ${JSON.stringify(name.slice(0, 40))} more than once`);
    form[name] = value;
  }
  return form;
}

/** The media type alone, without parameters. */
function mediaType(request: FastifyRequest): string {
  return (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
}

/**
 * `POST /api/websub`: the hub's endpoint for subscribers (WebSub §5.1), form-encoded, 202 with no
 * body once the request is well formed; the intent is verified afterwards. Public: subscribers
 * reach the gateway by whatever name they know it, so the Host check skips it; the kit's
 * cross-site check still refuses a browser form posted from another site (programs send no Origin).
 */
export async function websubRoutes(app: FastifyInstance, {hub}: {hub: Hub}): Promise<void> {
  // Encapsulated: only this plugin's routes read forms.
  app.addContentTypeParser(FORM_TYPE, {parseAs: 'string', bodyLimit: WEBSUB_FORM_MAX_BYTES}, (_request, body, done) => {
    try {
      done(null, readForm(typeof body === 'string' ? body : body.toString('utf8')));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
  // The kit words a 413 with the app's limit; this route's own is smaller. Anything else goes on to the kit's handler.
  app.setErrorHandler((error, _request, reply) => {
    if ((error as {code?: string}).code !== 'FST_ERR_CTP_BODY_TOO_LARGE') throw error;
    return reply.status(413).send({error: {code: 'payload_too_large', message: `a WebSub form is at most ${WEBSUB_FORM_MAX_BYTES / 1024} KB`}});
  });

  app.post<{Body: Record<string, string>}>(
    HUB_PATH,
    {
      config: {public: true},
      bodyLimit: WEBSUB_FORM_MAX_BYTES,
      schema: {querystring: noQuery, body: formBody, response: {202: {type: 'null'}, ...errorResponses}},
      // Before the schema: a JSON object of strings would pass it, but WebSub speaks forms.
      preValidation: async (request) => {
        if (mediaType(request) !== FORM_TYPE) {
          throw new WorkbenchError('invalid_body', `${HUB_PATH} takes a WebSub form (${FORM_TYPE}), not ${JSON.stringify(request.headers['content-type'] ?? 'no content type')}`);
        }
      },
    },
    async (request: FastifyRequest<{Body: Record<string, string>}>, reply: FastifyReply) => {
      await hub.request(request.body);
      return reply.status(202).send();
    },
  );
}
