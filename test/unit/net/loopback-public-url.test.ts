import {describe, expect, it} from 'vitest';
import {crossSiteRefusal, hostRefusal} from '../../../source/net/index.js';

// A server behind a loopback front (the GraphQL HTTP/3 front at https://localhost:5001) is reached
// as localhost, 127.0.0.1 or [::1]: a browser resolves localhost to ::1 or 127.0.0.1, and a user
// types either. Those names are the front's own; no other site can send them (issue 27 item 9).
const upstream = {localAddress: '127.0.0.1', localPort: 40001};
const front = 'https://localhost:5001';

describe('a loopback public URL answers to every loopback name', () => {
  it('takes the Host localhost, 127.0.0.1 and [::1] at the public port', () => {
    for (const host of ['localhost:5001', '127.0.0.1:5001', '[::1]:5001']) expect(hostRefusal(host, upstream, front), host).toBeUndefined();
  });

  it('still refuses other names and other ports', () => {
    for (const host of ['evil.example:5001', '127.0.0.2:5001', 'localhost:5002', '127.0.0.1:5002', 'localhost.evil.example:5001']) {
      expect(hostRefusal(host, upstream, front)?.code, host).toBe('host_not_allowed');
    }
  });

  it('takes writes from the pages of each loopback name, not from other origins', () => {
    for (const origin of ['https://localhost:5001', 'https://127.0.0.1:5001', 'https://[::1]:5001']) {
      expect(crossSiteRefusal('POST', {host: origin.slice(8), origin}, front), origin).toBeUndefined();
    }
    for (const origin of ['https://evil.example', 'https://127.0.0.2:5001', 'https://127.0.0.1:5002']) {
      expect(crossSiteRefusal('POST', {host: '127.0.0.1:5001', origin}, front)?.code, origin).toBe('cross_site_refused');
    }
  });

  it('keeps a public URL of another name to that name alone', () => {
    for (const host of ['feeds.example.org', 'feeds.example.org:443']) expect(hostRefusal(host, upstream, 'https://feeds.example.org'), host).toBeUndefined();
    expect(hostRefusal('127.0.0.1:443', upstream, 'https://feeds.example.org')?.code).toBe('host_not_allowed');
  });
});
