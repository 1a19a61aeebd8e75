import type {ErrorSources} from '../../../source/incidents/types.js';
import {alert, http, jsError, NOW, proxy, sources} from './records.js';

/**
 * One incident, the whole story: a page's TypeError after its cart POST failed with a 500 while
 * the API process threw. Records as the proxy and the alert scanner store them.
 */
export const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
export const PAGE = 'http://localhost:3000/cart';
export const AT = NOW - 5_000;

export const failedPost = http({
  method: 'POST',
  url: '/api/cart',
  status: 500,
  contentType: 'application/json',
  body: '{"message":"database is locked"}',
  page: PAGE,
  session: 'tab-1',
  traceId: TRACE,
  timestamp: AT,
});

export const pageError = jsError({
  message: "Uncaught TypeError: Cannot read properties of undefined (reading 'items')",
  stack: [
    "TypeError: Cannot read properties of undefined (reading 'items')",
    '    at renderCart (src/Cart.tsx:42:7)',
    '    at commitRoot (node_modules/react-dom/cjs/react-dom.development.js:19451:5)',
  ].join('\n'),
  page: PAGE,
  session: 'tab-1',
  timestamp: AT + 120,
});

export const serverRaw = [
  `[trace ${TRACE}] Error: database is locked`,
  '    at saveCart (/srv/api/src/routes/cart.js:41:18)',
  '    at Layer.handle (/srv/api/node_modules/express/lib/router/layer.js:95:5)',
].join('\n');
export const serverAlert = alert({
  processId: 'api',
  category: 'Error',
  message: 'database is locked',
  location: '/srv/api/src/routes/cart.js:41:18',
  raw: serverRaw,
  frames: ['at saveCart (/srv/api/src/routes/cart.js:41:18)', 'at Layer.handle (/srv/api/node_modules/express/lib/router/layer.js:95:5)'],
  lastSeen: AT - 10,
});

export function store(fields: {http?: ReturnType<typeof http>[]; js?: ReturnType<typeof jsError>[]; alerts?: ReturnType<typeof alert>[]} = {}): ErrorSources {
  return sources({
    processAlerts: fields.alerts ?? [serverAlert],
    proxies: [proxy('app', {http: fields.http ?? [failedPost], js: fields.js ?? [pageError]})],
    processIds: ['api'],
  });
}
