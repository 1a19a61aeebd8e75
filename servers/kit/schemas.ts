// JSON schemas every server shares: the error body and the query of a route that takes none.

export const errorSchema = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: {code: {type: 'string'}, message: {type: 'string'}},
    },
  },
} as const;

/** Every route answers errors in one shape. */
export const errorResponses = {'4xx': errorSchema, '5xx': errorSchema} as const;

/** The query schema of a route that takes no parameters: any given one is refused. */
export const noQuery = {type: 'object', additionalProperties: false, properties: {}} as const;
