import type {FastifyInstance} from 'fastify';
import {WorkbenchError} from '../../source/core/errors.js';

/**
 * fastify's JSON parser (secure-json-parse underneath, refusing prototype-poisoning keys) with
 * two changes: an empty body reads as no body, since action endpoints get `Content-Type:
 * application/json` with nothing from many clients; and a refusal says why, where fastify only
 * says "not valid JSON" for a syntax error and a `__proto__` key alike.
 */
export function installJsonBodyParser(app: FastifyInstance): void {
  const json = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', {parseAs: 'string'}, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    json(request, text, (error, value) => (error ? done(whyRefused(text)) : done(null, value)));
  });
}

// Plain JSON.parse tells the two apart: it takes the poisoning keys that the secure parser refuses.
function whyRefused(text: string): WorkbenchError {
  try {
    JSON.parse(text);
  } catch (error) {
    return new WorkbenchError('invalid_body', `body is not valid JSON: ${(error as Error).message}`);
  }
  return new WorkbenchError('invalid_body', 'body has a "__proto__" or "constructor.prototype" key; such keys are refused');
}
