import type {FastifyInstance} from 'fastify';
import type {Fields} from '../../../source/feeds/greader/params.js';

export const FORM_TYPE = 'application/x-www-form-urlencoded';
/** Edits name items by the thousand (`i=` × 1,000 is about 60 KB); a form is never bigger than this. */
export const FORM_MAX_BYTES = 512 * 1024;

/** Reads form bodies as fields, a repeated one as an array (`i=1&i=2`), in this plugin only. */
export function acceptForms(app: FastifyInstance): void {
  app.addContentTypeParser(FORM_TYPE, {parseAs: 'string', bodyLimit: FORM_MAX_BYTES}, (_request, body, done) => {
    done(null, readFields(typeof body === 'string' ? body : body.toString('utf8')));
  });
}

export function readFields(text: string): Fields {
  const fields: Fields = Object.create(null) as Fields;
  for (const [name, value] of new URLSearchParams(text)) {
    const before = fields[name];
    fields[name] = before === undefined ? value : Array.isArray(before) ? [...before, value] : [before, value];
  }
  return fields;
}
