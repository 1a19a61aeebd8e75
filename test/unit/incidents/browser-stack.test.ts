import {describe, expect, it} from 'vitest';
import {queryErrors} from '../../../source/incidents/query.js';
import {jsError, NOW, proxy, sources} from './records.js';

/** Stack reduction (rule 2) as seen through browser:js entries of get_errors. */
function locationOf(stack: string): string {
  const errors = queryErrors(sources({proxies: [proxy('app', {js: [jsError({message: 'TypeError: x is undefined', stack})]})]}), {}, NOW);
  return errors[0].location;
}

const APP_FRAME = '    at renderCart (http://localhost:3000/src/Cart.tsx:42:17)';

describe('browser:js location is the first application frame (rule 2)', () => {
  it.each([
    ['node_modules/', '    at commitRoot (http://localhost:3000/node_modules/.vite/deps/react-dom.js?v=9a1c:19451:5)'],
    ['webpack/', '    at __webpack_require__ (http://localhost:3000/static/js/webpack/bootstrap:24:1)'],
    ['node:internal/', '    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)'],
    ['<anonymous>', '    at Array.map (<anonymous>)'],
    ['webpack-internal', '    at eval (webpack-internal:///./node_modules/react-dom/cjs/react-dom.development.js:4164:14)'],
  ])('skips %s frames', (_marker, skipped) => {
    expect(locationOf(['TypeError: x is undefined', skipped, APP_FRAME].join('\n'))).toBe('http://localhost:3000/src/Cart.tsx:42:17');
  });

  it('reads a Firefox/Safari style stack', () => {
    const stack = [
      'dispatch@http://localhost:5173/node_modules/.vite/deps/chunk-X.js?v=1:10:3',
      'handleClick@http://localhost:5173/src/App.jsx:12:9',
      '@http://localhost:5173/src/main.jsx:5:1',
    ].join('\n');
    expect(locationOf(stack)).toBe('http://localhost:5173/src/App.jsx:12:9');
  });

  it('takes a source-mapped frame (project-relative) as the app frame, and a mapped dependency frame not', () => {
    const v8 = [
      "TypeError: Cannot read properties of null (reading 'focus')",
      '    at commitRoot (node_modules/react-dom/cjs/react-dom.development.js:19451:5)',
      '    at n (http://localhost:5173/node_modules/.vite/deps/chunk-X.js?v=1:10:3)',
      '    at Cart (src/App.tsx:42:7)',
    ].join('\n');
    expect(locationOf(v8)).toBe('src/App.tsx:42:7');
    const firefox = ['commitRoot@node_modules/react-dom/cjs/react-dom.development.js:19451:5', 'Cart@src/App.tsx:42:7'].join('\n');
    expect(locationOf(firefox)).toBe('src/App.tsx:42:7');
  });

  it("skips Vite's client modules and reads Safari's `global code@` frames", () => {
    expect(locationOf(['Error: x', '    at handleMessage (http://localhost:5173/@vite/client:520:9)', APP_FRAME].join('\n'))).toBe('http://localhost:3000/src/Cart.tsx:42:17');
    expect(locationOf('global code@http://localhost:5173/src/main.ts:5:1')).toBe('http://localhost:5173/src/main.ts:5:1');
  });

  it('has an empty location when every frame is skipped or there is no stack', () => {
    expect(locationOf('TypeError: x\n    at Array.forEach (<anonymous>)\n    at n (http://localhost:3000/node_modules/lib/index.js:1:99)')).toBe('');
    const errors = queryErrors(sources({proxies: [proxy('app', {js: [jsError({message: 'Script error.'})]})]}), {}, NOW);
    expect(errors[0]).toMatchObject({category: 'Error', message: 'Script error.', location: ''});
  });

  it('splits the error class off the message, also after "Uncaught"', () => {
    const js = [jsError({message: "Uncaught TypeError: Cannot read properties of null (reading 'focus')", stack: `TypeError\n${APP_FRAME}`})];
    const [error] = queryErrors(sources({proxies: [proxy('app', {js})]}), {}, NOW);
    expect(error).toMatchObject({source: 'browser:js', category: 'TypeError', message: "Cannot read properties of null (reading 'focus')", page: 'http://localhost:3000/'});
  });
});
