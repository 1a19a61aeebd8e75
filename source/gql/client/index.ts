export {type GqlClient, type GqlClientRequest, type SubscriptionHandlers} from './gql-client.js';
export {GQL_ACCEPT, GQL_CLIENT_TIMEOUT_MS} from './wire.js';
export {GRAPHQL_SERVICE, graphqlEndpoint, runningGqlServer} from './find-server.js';
export {inProcessGqlClient, type InProcessCaller} from './in-process.js';
export {httpGqlClient} from './over-http.js';
export {GQL_TOKEN_VARIABLE, openGqlClient, type OpenGqlClientOptions} from './open-client.js';
export {resultOfAnswer} from './answer.js';
