/**
 * Every primitive of window.__devtool, by group, in the order the reference lists them. Node imports
 * this to print the reference, so nothing here or in what it imports touches the DOM at load.
 */
import {a11y} from './a11y.js';
import {actions} from './actions.js';
import {documentInfo} from './document.js';
import {inspect} from './inspect.js';
import {layout} from './layout.js';
import {overlaysGroup} from './overlays.js';
import {pageLog} from './page-log.js';
import {performanceInfo} from './performance.js';
import type {PrimitiveGroup} from './primitive.js';
import {query} from './query.js';
import {snapshots} from './snapshot-diff.js';
import {visibility} from './visibility.js';
import {wait} from './wait.js';

export interface CatalogGroup {
  name: string;
  title: string;
  primitives: PrimitiveGroup;
}

export const CATALOG: CatalogGroup[] = [
  {name: 'log', title: 'Logging to the proxy', primitives: pageLog},
  {name: 'inspect', title: 'One element: position, box, styles, stacking', primitives: inspect},
  {name: 'query', title: 'Querying and walking the DOM', primitives: query},
  {name: 'visibility', title: 'Visibility, viewport, overlap and hit testing', primitives: visibility},
  {name: 'layout', title: 'Layout problems across the page', primitives: layout},
  {name: 'a11y', title: 'Accessibility', primitives: a11y},
  {name: 'document', title: 'The page as a whole', primitives: documentInfo},
  {name: 'performance', title: 'Performance and layout stability', primitives: performanceInfo},
  {name: 'overlays', title: 'Overlays drawn on the page', primitives: overlaysGroup},
  {name: 'wait', title: 'Waiting (promises; exec awaits them)', primitives: wait},
  {name: 'snapshots', title: 'DOM snapshots and their diff', primitives: snapshots},
  {name: 'actions', title: 'Acting on the page', primitives: actions},
];
