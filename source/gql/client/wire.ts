// What every client of the service shares on the wire; a leaf, so the chat client (which the
// GqlClient interface names) may use it without a circle.

/**
 * How long a face waits for one answer of the service, in-process or over HTTP: a local server
 * answers in milliseconds, a big result over a slow database may take a while — past this the
 * face says the server did not answer rather than hang. One number for every face.
 */
export const GQL_CLIENT_TIMEOUT_MS = 120_000;

/** What the GraphQL-over-HTTP client asks for; in-process requests say the same, so both get the same answer. */
export const GQL_ACCEPT = 'application/graphql-response+json, application/json';
