import {afterEach, describe, expect, it} from 'vitest';
import {guardedFetch} from '../../../source/net/guarded-fetch.js';
import {startOrigin, testNetwork, type TestOrigin} from '../../helpers/test-network.js';

// The fetch handed to the model SDKs: the address policy on the address actually connected to.
let origin: TestOrigin | undefined;
afterEach(async () => {
  await origin?.close();
  origin = undefined;
});

describe('guardedFetch', () => {
  it('streams an answer from an admitted address, with its status and headers', async () => {
    origin = await startOrigin((_request, response) => {
      response.writeHead(201, {'content-type': 'text/event-stream', 'x-one': '1'});
      response.write('data: a\n\n');
      setTimeout(() => response.end('data: b\n\n'), 20);
    });
    const fetch = guardedFetch({allowPrivate: true}, testNetwork({'model.test': '127.0.0.1'}));
    const response = await fetch(`http://model.test:${origin.port}/v1/messages`, {method: 'POST', body: '{}', headers: {'content-type': 'application/json'}});
    expect(response.status).toBe(201);
    expect(response.headers.get('x-one')).toBe('1');
    expect(await response.text()).toBe('data: a\n\ndata: b\n\n');
  });

  it('never connects to a name that resolves to a link-local or metadata address, nor to such a literal', async () => {
    const network = testNetwork({'metadata.test': '169.254.169.254'});
    const fetch = guardedFetch({allowPrivate: true}, network);
    await expect(fetch('http://metadata.test/latest/meta-data/')).rejects.toThrow(/link-local or cloud metadata/);
    await expect(fetch('http://169.254.169.254/latest/meta-data/')).rejects.toThrow(/link-local or cloud metadata/);
    await expect(fetch('http://[::ffff:169.254.169.254]/')).rejects.toThrow(/link-local or cloud metadata/);
    expect(network.lookups).toEqual(['metadata.test']);
  });

  it('refuses protocols other than http and https', async () => {
    await expect(guardedFetch({allowPrivate: true})('file:///etc/passwd')).rejects.toThrow(/unsupported protocol file:/);
  });
});
