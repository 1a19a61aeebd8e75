import type {PaneDefinition} from './types.js';
import {processesPane} from './processes.js';
import {incidentsPane} from './incidents.js';
import {feedsPane} from './feeds/FeedsPane.js';
import {proxyPane} from './proxy.js';
import {graphqlPane} from './graphql/GraphqlPane.js';
import {chatPane} from './chat.js';

/** The panes of the shell in tab order; number keys follow this order. Add a pane here. */
export const panes: PaneDefinition[] = [processesPane, incidentsPane, feedsPane, proxyPane, graphqlPane, chatPane];
