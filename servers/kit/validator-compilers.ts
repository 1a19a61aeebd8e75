import {Ajv} from 'ajv';
import type {FastifySchemaCompiler} from 'fastify';

// Query strings and path parameters are text, so "50" becomes 50 there; a JSON body already has
// types, so {"read": "true"} is a wrong type, not true. Unknown fields fail instead of vanishing.
const shared = {removeAdditional: false, useDefaults: true, allErrors: false, allowUnionTypes: true, strict: false} as const;
const bodies = new Ajv({...shared, coerceTypes: false});
const text = new Ajv({...shared, coerceTypes: 'array'});

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({schema, httpPart}) => (httpPart === 'body' ? bodies : text).compile(schema as object);
