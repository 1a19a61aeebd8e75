import {describe, expect, it} from 'vitest';
import {formatIncidentsCompact, queryIncidents, type Incident} from '../../../source/incidents/incidents.js';
import {queryErrors} from '../../../source/incidents/query.js';
import {alert, NOW} from './records.js';
import {AT, failedPost, PAGE, pageError, serverAlert, store, TRACE} from './story-records.js';

const byKind = (incidents: Incident[], kind: Incident['kind']) => incidents.find((incident) => incident.kind === kind)!;

describe('get_incidents joins page error, failing request and server exception', () => {
  it('tells the three parts on the page error, joined by the trace id the server printed', () => {
    const incidents = queryIncidents(store(), NOW);
    const page = byKind(incidents, 'js_error');
    const request = byKind(incidents, 'http_5xx');
    const server = byKind(incidents, 'process_error');
    expect(page.story).toEqual({
      joined_by: 'trace',
      browser: {
        incident: page.id,
        category: 'TypeError',
        message: "Cannot read properties of undefined (reading 'items')",
        location: 'src/Cart.tsx:42:7',
        page: PAGE,
        stack: ['at renderCart (src/Cart.tsx:42:7)', 'at commitRoot (node_modules/react-dom/cjs/react-dom.development.js:19451:5)'],
        at: '2026-11-20T11:59:55.120Z',
      },
      request: {incident: request.id, method: 'POST', url: '/api/cart', status: 500, message: 'database is locked', trace_id: TRACE, at: '2026-11-20T11:59:55.000Z'},
      server: {
        incident: server.id,
        source: 'process:api',
        category: 'Error',
        message: 'database is locked',
        location: '/srv/api/src/routes/cart.js:41:18',
        frames: serverAlert.frames,
        at: '2026-11-20T11:59:54.990Z',
      },
    });
    expect(request).toMatchObject({part_of: page.id});
    expect(server).toMatchObject({part_of: page.id});
    expect(request.story).toBeUndefined();
  });

  it('prints the story under the page error in a few lines, and points the parts to it', () => {
    const incidents = queryIncidents(store(), NOW);
    const page = byKind(incidents, 'js_error');
    expect(formatIncidentsCompact([page], NOW).split('\n').slice(2)).toEqual([
      `[error:js_error] browser:js TypeError (1x, 4s ago) id ${page.id}`,
      "Cannot read properties of undefined (reading 'items')",
      '→ src/Cart.tsx:42:7',
      `page: ${PAGE}`,
      `story (trace ${TRACE}):`,
      "  browser  TypeError: Cannot read properties of undefined (reading 'items') → src/Cart.tsx:42:7",
      '  request  POST /api/cart → 500 database is locked',
      '  server   process:api Error: database is locked → /srv/api/src/routes/cart.js:41:18',
    ]);
    expect(formatIncidentsCompact([byKind(incidents, 'http_5xx')], NOW)).toContain(`\npart of ${page.id}`);
  });

  it('joins by trace id however far apart the server logged it, before a nearer alert without one', () => {
    const late = {...serverAlert, lastSeen: AT + 30_000};
    const nearer = alert({processId: 'worker', category: 'TypeError', message: 'job failed', lastSeen: AT});
    const story = byKind(queryIncidents(store({alerts: [late, nearer]}), NOW), 'js_error').story!;
    expect(story).toMatchObject({joined_by: 'trace', server: {source: 'process:api', message: 'database is locked'}});
  });

  it('joins by time when the server does not print trace ids: the exception nearest the request within 2 s', () => {
    const untraced = {...serverAlert, raw: 'Error: database is locked'};
    const earlier = alert({processId: 'api', category: 'Error', message: 'pool exhausted', lastSeen: AT - 1_900});
    const story = byKind(queryIncidents(store({alerts: [earlier, untraced]}), NOW), 'js_error').story!;
    expect(story).toMatchObject({joined_by: 'time', request: {status: 500}, server: {message: 'database is locked'}});
    expect(formatIncidentsCompact([byKind(queryIncidents(store({alerts: [untraced]}), NOW), 'js_error')], NOW)).toContain('story (same page, within 2s):');
  });

  it('does not join a browser error 10 s later; the request then tells its own story with the server', () => {
    const incidents = queryIncidents(store({js: [{...pageError, timestamp: AT + 10_000}]}), NOW);
    expect(byKind(incidents, 'js_error').story).toBeUndefined();
    expect(byKind(incidents, 'js_error').part_of).toBeUndefined();
    const request = byKind(incidents, 'http_5xx');
    expect(request.story).toMatchObject({joined_by: 'trace', request: {url: '/api/cart'}, server: {source: 'process:api'}});
    expect(request.story!.browser).toBeUndefined();
    expect(byKind(incidents, 'process_error').part_of).toBe(request.id);
  });

  it('does not join an error of another page, nor of another tab on the same page', () => {
    const otherPage = {...pageError, page: 'http://localhost:3000/checkout', session: 'tab-2'};
    expect(byKind(queryIncidents(store({js: [otherPage]}), NOW), 'js_error').story).toBeUndefined();
    const otherTab = {...pageError, session: 'tab-2'};
    expect(byKind(queryIncidents(store({js: [otherTab]}), NOW), 'js_error').story).toBeUndefined();
    // Without sessions, the page URL decides (its #fragment aside).
    const noSessions = store({http: [{...failedPost, session: undefined}], js: [{...pageError, session: undefined, page: `${PAGE}#step-2`}]});
    expect(byKind(queryIncidents(noSessions, NOW), 'js_error').story).toMatchObject({request: {url: '/api/cart'}});
    // A request whose page is unknown is joined to no page error.
    const anonymous = store({http: [{...failedPost, session: undefined, page: undefined}], js: [{...pageError, session: undefined}]});
    expect(byKind(queryIncidents(anonymous, NOW), 'js_error').story).toBeUndefined();
  });

  it('takes the request nearest the error among the page’s failures', () => {
    const earlier = {...failedPost, url: '/api/prices', traceId: 'a'.repeat(32), timestamp: AT - 1_500};
    const story = byKind(queryIncidents(store({http: [earlier, failedPost]}), NOW), 'js_error').story!;
    expect(story.request.url).toBe('/api/cart');
  });

  it('never takes a 404 (or any 4xx) as the cause', () => {
    const missing = {...failedPost, status: 404, body: '{"message":"no cart"}'};
    const incidents = queryIncidents(store({http: [missing]}), NOW);
    expect(byKind(incidents, 'js_error').story).toBeUndefined();
    expect(byKind(incidents, 'http_4xx').story).toBeUndefined();
    expect(byKind(incidents, 'http_4xx').part_of).toBeUndefined();
    expect(incidents.find((incident) => incident.story || incident.part_of)).toBeUndefined();
    const forbidden = {...failedPost, status: 403, body: '{"message":"forbidden"}'};
    expect(queryIncidents(store({http: [forbidden]}), NOW).find((incident) => incident.story || incident.part_of)).toBeUndefined();
  });

  it('takes a request that got no response (transport error) as a cause', () => {
    const refused = {...failedPost, status: 0, body: undefined, contentType: undefined, error: 'connect ECONNREFUSED 127.0.0.1:4000'};
    const incidents = queryIncidents(store({http: [refused], alerts: []}), NOW);
    expect(byKind(incidents, 'js_error').story).toMatchObject({joined_by: 'time', request: {status: 0, message: 'connect ECONNREFUSED 127.0.0.1:4000'}});
    expect(byKind(incidents, 'js_error').story!.server).toBeUndefined();
    expect(formatIncidentsCompact([byKind(incidents, 'js_error')], NOW)).toContain('  request  POST /api/cart → no response connect ECONNREFUSED 127.0.0.1:4000');
  });

  it('joins no server exception that is 10 s off, a build error, or one naming another request’s trace id', () => {
    const far = {...serverAlert, raw: 'Error: database is locked', lastSeen: AT - 10_000};
    const build = alert({processId: 'api', category: 'TS2322', message: "Type 'string' is not assignable", compile: true, lastSeen: AT});
    const otherTrace = {...serverAlert, raw: `[trace ${'b'.repeat(32)}] Error: database is locked`, lastSeen: AT};
    for (const alerts of [[far], [build], [otherTrace]]) {
      const story = byKind(queryIncidents(store({alerts}), NOW), 'js_error').story!;
      expect(story.request.url).toBe('/api/cart');
      expect(story.server).toBeUndefined();
    }
  });

  it('tells each incident’s newest story', () => {
    const older = {...failedPost, url: '/api/cart?v=1', traceId: 'c'.repeat(32), timestamp: AT - 60_000};
    const olderError = {...pageError, timestamp: AT - 59_900};
    const story = byKind(queryIncidents(store({http: [older, failedPost], js: [olderError, pageError]}), NOW), 'js_error').story!;
    expect(story.request.url).toBe('/api/cart');
  });

  it('leaves out what the query scopes out: a proxy_id query has no server part', () => {
    const story = byKind(queryIncidents(store(), NOW, {proxy_id: 'app'}), 'js_error').story!;
    expect(story.request.url).toBe('/api/cart');
    expect(story.server).toBeUndefined();
    expect(queryIncidents(store(), NOW, {since: '1s'}).find((incident) => incident.story)).toBeUndefined();
  });

  it('leaves get_errors as it was: 8 fields, no story', () => {
    for (const error of queryErrors(store(), {}, NOW)) {
      expect(Object.keys(error)).toEqual(['source', 'severity', 'category', 'message', 'location', 'page', 'count', 'last_seen']);
    }
  });
});

describe('get_incidents {"id"}: one incident whole', () => {
  it('shows the story with every part’s frames', async () => {
    const {formatIncidentsPage, getIncidentsInput} = await import('../../../source/tools/get-incidents.js');
    const page = byKind(queryIncidents(store(), NOW), 'js_error');
    const text = formatIncidentsPage({incidents: [page], total: 1, unread: 1, marked: 0, one: true}, getIncidentsInput.parse({id: page.id}));
    expect(text.split('\n').slice(-8)).toEqual([
      `story (trace ${TRACE}):`,
      "  browser  TypeError: Cannot read properties of undefined (reading 'items') → src/Cart.tsx:42:7",
      '             at renderCart (src/Cart.tsx:42:7)',
      '             at commitRoot (node_modules/react-dom/cjs/react-dom.development.js:19451:5)',
      '  request  POST /api/cart → 500 database is locked',
      '  server   process:api Error: database is locked → /srv/api/src/routes/cart.js:41:18',
      '             at saveCart (/srv/api/src/routes/cart.js:41:18)',
      '             at Layer.handle (/srv/api/node_modules/express/lib/router/layer.js:95:5)',
    ]);
    const request = byKind(queryIncidents(store(), NOW), 'http_5xx');
    expect(formatIncidentsPage({incidents: [request], total: 1, unread: 1, marked: 0, one: true}, getIncidentsInput.parse({id: request.id}))).toContain(`part of: ${page.id}`);
  });
});
