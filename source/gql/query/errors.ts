import {GraphQLError} from 'graphql';
import {failureWords} from '../request/format-error.js';

/** Any failure of a resolver as the GraphQL error the client sees, worded once for every face (request/format-error.ts). Never a stack. */
export function toGraphQLError(error: unknown): GraphQLError {
  if (error instanceof GraphQLError) return error;
  const {message, code} = failureWords(error);
  return new GraphQLError(message, {extensions: {code}});
}

/** Wraps a resolver so whatever it throws reaches the client as `toGraphQLError` says. */
export function guarded<A extends unknown[], R>(resolve: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
  return async (...args: A) => {
    try {
      return await resolve(...args);
    } catch (error) {
      throw toGraphQLError(error);
    }
  };
}
