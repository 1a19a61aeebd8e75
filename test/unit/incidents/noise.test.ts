import {describe, expect, it} from 'vitest';
import {isNoise} from '../../../source/incidents/noise.js';
import {queryErrors} from '../../../source/incidents/query.js';
import {NOW, http, proxy, sources} from './records.js';

describe('HTTP noise filter (rule 3)', () => {
  it.each([301, 302, 304])('drops status %i', (status) => {
    expect(isNoise({status, url: '/login'})).toBe(true);
  });

  it.each([
    ['source map', '/static/js/main.4f2a1c.js.map'],
    ['source map with a query', '/assets/index.js.map?v=3'],
    ['favicon', '/favicon.ico'],
    ['favicon in a folder', '/icons/favicon-32x32.png'],
    ['hot update chunk', '/main.a1b2c3.hot-update.js'],
    ['hot update manifest', '/main.a1b2c3.hot-update.json'],
    ['webpack HMR event stream', '/__webpack_hmr'],
    ['sockjs dev server', '/sockjs-node/info?t=1700000000000'],
    ['WebSocket URL', 'ws://localhost:3000/ws'],
    ['secure WebSocket URL', 'wss://localhost:3000/_next/webpack-hmr'],
    ['absolute URL of a source map', 'http://localhost:3000/app.css.map'],
  ])('drops a 404 of a %s', (_kind, url) => {
    expect(isNoise({status: 404, url})).toBe(true);
  });

  it.each([
    ['API route', 404, '/api/users/42'],
    ['page', 404, '/dashboard'],
    ['map-like page', 404, '/sitemap'],
    ['source map that failed with 500', 500, '/main.js.map'],
    ['favicon forbidden', 403, '/favicon.ico'],
    ['server error', 500, '/api/orders'],
  ])('keeps a %s (%i)', (_kind, status, url) => {
    expect(isNoise({status, url})).toBe(false);
  });

  it('keeps noise out of get_errors while real errors remain', () => {
    const records = proxy('app', {
      http: [
        http({url: '/favicon.ico', status: 404}),
        http({url: '/old', status: 301}),
        http({url: '/static/js/bundle.js.map', status: 404}),
        http({url: '/api/cart', status: 404, contentType: 'application/json', body: '{"message":"cart not found"}'}),
      ],
    });
    const errors = queryErrors(sources({proxies: [records]}), {}, NOW);
    expect(errors.map((error) => error.message)).toEqual(['GET /api/cart → cart not found']);
  });
});
