import {describe, expect, it} from 'vitest';
import {allowPageScript} from '../../../source/devproxy/inject/csp.js';

const NONCE = 'abc123';
const WS = 'ws://127.0.0.1:8080';
const adjust = (policy: string) => allowPageScript(policy, NONCE, WS);

describe('Content-Security-Policy for the page script', () => {
  it('adds the nonce to a strict nonce policy, beside the page’s own nonce and strict-dynamic', () => {
    expect(adjust("script-src 'nonce-page' 'strict-dynamic'; object-src 'none'")).toBe("script-src 'nonce-page' 'strict-dynamic' 'nonce-abc123'; object-src 'none'");
  });

  it("leaves a script-src that allows inline scripts with 'unsafe-inline' alone (a nonce would switch it off for the page)", () => {
    expect(adjust("script-src 'self' 'unsafe-inline'")).toBe("script-src 'self' 'unsafe-inline'");
  });

  it("adds the nonce when 'unsafe-inline' is already void: next to a hash, a nonce or 'strict-dynamic'", () => {
    expect(adjust("script-src 'unsafe-inline' 'sha256-xyz'")).toBe("script-src 'unsafe-inline' 'sha256-xyz' 'nonce-abc123'");
    expect(adjust("script-src 'unsafe-inline' 'nonce-page'")).toBe("script-src 'unsafe-inline' 'nonce-page' 'nonce-abc123'");
    expect(adjust("script-src 'unsafe-inline' 'strict-dynamic'")).toBe("script-src 'unsafe-inline' 'strict-dynamic' 'nonce-abc123'");
  });

  it('uses script-src-elem before script-src, and default-src when neither is there', () => {
    expect(adjust("script-src-elem 'self'; script-src 'self' 'unsafe-inline'")).toBe("script-src-elem 'self' 'nonce-abc123'; script-src 'self' 'unsafe-inline'");
    expect(adjust("default-src 'self'")).toBe(`default-src 'self' 'nonce-abc123' ${WS}`);
  });

  it("replaces 'none' rather than adding beside it", () => {
    expect(adjust("default-src 'none'")).toBe(`default-src 'nonce-abc123' ${WS}`);
  });

  it('lets the channel connect through connect-src', () => {
    expect(adjust("script-src 'self' 'unsafe-inline'; connect-src 'self' https://api.example.com")).toBe(
      `script-src 'self' 'unsafe-inline'; connect-src 'self' https://api.example.com ${WS}`,
    );
  });

  it('changes nothing in a policy that restricts neither scripts nor connections', () => {
    expect(adjust("img-src 'self'; frame-ancestors 'none'")).toBe("img-src 'self'; frame-ancestors 'none'");
  });

  it('adjusts each policy of a header that holds several', () => {
    expect(adjust("script-src 'self', default-src 'self'")).toBe(`script-src 'self' 'nonce-abc123',default-src 'self' 'nonce-abc123' ${WS}`);
  });
});
