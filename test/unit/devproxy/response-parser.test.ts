import type {IncomingHttpHeaders} from 'node:http';
import {describe, expect, it} from 'vitest';
import {MAX_HEAD_BYTES, ResponseParser} from '../../../source/devproxy/proxy/response-parser.js';

interface Heard {
  status?: number;
  headers?: IncomingHttpHeaders;
  body: string;
  ends: boolean[];
}

/** Feeds the response in pieces of `step` bytes (every split point must give the same result). */
function parse(text: string, {step = Infinity, head = false, close = false} = {}): Heard {
  const heard: Heard = {body: '', ends: []};
  const parser = new ResponseParser(
    {
      onHead: (status, _message, headers) => Object.assign(heard, {status, headers}),
      onBody: (chunk) => (heard.body += chunk.toString('latin1')),
      onEnd: (reusable) => heard.ends.push(reusable),
    },
    head,
  );
  const bytes = Buffer.from(text, 'latin1');
  for (let offset = 0; offset < bytes.length; offset += Math.min(step, bytes.length)) parser.feed(bytes.subarray(offset, offset + step));
  if (close) parser.close();
  return heard;
}

describe('the response parser', () => {
  const chunked = 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nSet-Cookie: a=1\r\nset-cookie: b=2\r\n\r\n5;ext=1\r\nhello\r\n6\r\n world\r\n0\r\nx-trailer: t\r\n\r\n';

  it.each([1, 2, 7, Infinity])('frames Content-Length and chunked bodies the same whatever the split (%s bytes a piece)', (step) => {
    expect(parse('HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Type: text/plain\r\n\r\nhello', {step})).toEqual({
      status: 200,
      headers: {'content-length': '5', 'content-type': 'text/plain'},
      body: 'hello',
      ends: [true],
    });
    expect(parse(chunked, {step})).toMatchObject({status: 200, body: 'hello world', ends: [true], headers: {'set-cookie': ['a=1', 'b=2']}});
  });

  it('skips interim 1xx answers, reads a close-delimited body to the end, and gives HEAD, 204 and 304 no body', () => {
    expect(parse('HTTP/1.1 103 Early Hints\r\nLink: </a.css>\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\nok')).toMatchObject({status: 201, body: 'ok'});
    expect(parse('HTTP/1.1 200 OK\r\n\r\nuntil the end', {close: true})).toMatchObject({body: 'until the end', ends: [false]});
    expect(parse('HTTP/1.1 200 OK\r\nContent-Length: 99\r\n\r\n', {head: true})).toMatchObject({body: '', ends: [true]});
    expect(parse('HTTP/1.1 304 Not Modified\r\nContent-Length: 99\r\n\r\n')).toMatchObject({body: '', ends: [true]});
  });

  it('reads a head it has seen before as the first time, framed for the request at hand, and the headers it shares cannot be changed', () => {
    const text = 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\nX-Seen: again\r\nSet-Cookie: a=1\r\n\r\nok';
    const first = parse(text);
    const again = parse(text);
    expect(again).toEqual(first);
    expect(again).toMatchObject({body: 'ok', headers: {'x-seen': 'again', 'set-cookie': ['a=1']}});
    expect(parse(text, {head: true})).toMatchObject({status: 200, body: '', ends: [true], headers: {'x-seen': 'again'}});
    expect(() => Object.assign(again.headers!, {'x-seen': 'changed'})).toThrow(TypeError);
    expect(() => (again.headers!['set-cookie'] as string[]).push('b=2')).toThrow(TypeError);
    expect(parse(text.replace('again', 'other')).headers).toMatchObject({'x-seen': 'other'});
  });

  it('does not reuse a connection the target asks to close, or one that answered twice', () => {
    expect(parse('HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 0\r\n\r\n').ends).toEqual([false]);
    expect(parse('HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n').ends).toEqual([false]);
    const twice = new ResponseParser({onHead() {}, onBody() {}, onEnd() {}}, false);
    twice.feed(Buffer.from('HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\nHTTP/1.1 200 OK\r\n'));
    expect(twice.close()).toBe(true);
  });

  it('says a response cut short is incomplete', () => {
    const cut = new ResponseParser({onHead() {}, onBody() {}, onEnd() {}}, false);
    cut.feed(Buffer.from('HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc'));
    expect(cut.close()).toBe(false);
  });

  it.each([
    ['no status line', 'garbage\r\n\r\n'],
    ['an HTTP/2 status line', 'HTTP/2 200 OK\r\n\r\n'],
    ['a status out of range', 'HTTP/1.1 099 Low\r\n\r\n'],
    ['both Content-Length and Transfer-Encoding', 'HTTP/1.1 200 OK\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n'],
    ['conflicting Content-Length', 'HTTP/1.1 200 OK\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\n'],
    ['a signed Content-Length', 'HTTP/1.1 200 OK\r\nContent-Length: +3\r\n\r\n'],
    ['a Content-Length list', 'HTTP/1.1 200 OK\r\nContent-Length: 3, 3\r\n\r\n'],
    ['a coding other than chunked', 'HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\n'],
    ['obs-fold', 'HTTP/1.1 200 OK\r\nX-A: 1\r\n continued\r\n\r\n'],
    ['a bare LF in the head', 'HTTP/1.1 200 OK\nContent-Length: 0\r\n\r\n'],
    ['a space before the colon', 'HTTP/1.1 200 OK\r\nContent-Length : 0\r\n\r\n'],
    ['an invalid header name', 'HTTP/1.1 200 OK\r\nX(A): 1\r\n\r\n'],
    ['a header line without a colon', 'HTTP/1.1 200 OK\r\nnocolon\r\n\r\n'],
    ['a NUL in a value', 'HTTP/1.1 200 OK\r\nX-A: a\x00b\r\n\r\n'],
    ['a bad chunk size', 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n'],
    ['a chunk size too large', 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1234567890abc\r\n'],
    ['a bare LF after a chunk size', 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\nhello\r\n'],
    ['chunk data longer than its size', 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nhello\r\n'],
    ['a 101 to a request without upgrade', 'HTTP/1.1 101 Switching Protocols\r\n\r\n'],
  ])('refuses %s as malformed', (_what, text) => {
    for (const step of [1, Infinity]) expect(() => parse(text, {step})).toThrow(expect.objectContaining({code: 'HPE_INVALID_RESPONSE', name: 'HTTPParserError'}));
  });

  it('refuses a head larger than 64 KiB, whole or in pieces', () => {
    const huge = `HTTP/1.1 200 OK\r\nX-Big: ${'a'.repeat(MAX_HEAD_BYTES)}\r\n\r\n`;
    expect(() => parse(huge)).toThrow(/larger than/);
    expect(() => parse(huge, {step: 4096})).toThrow(/larger than/);
  });
});
