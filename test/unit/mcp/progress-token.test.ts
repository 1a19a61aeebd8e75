import {describe, expect, it} from 'vitest';
import {LineGuard} from '../../../source/mcp/line-guard.js';
import {BAD_TOKEN_MARK, badProgressToken, markBadProgressToken} from '../../../source/mcp/progress-token.js';

const line = (message: unknown) => Buffer.from(JSON.stringify(message) + '\n');
const request = (meta: unknown) => ({jsonrpc: '2.0', id: 3, method: 'tools/call', params: {name: 'detect', arguments: {}, _meta: meta}});

describe('markBadProgressToken', () => {
  it('passes lines with a good token, without one, and lines that are no JSON, byte for byte', () => {
    for (const given of [
      line(request({progressToken: 'abc'})),
      line(request({progressToken: 7})),
      line(request({})),
      line({jsonrpc: '2.0', id: 1, method: 'tools/list'}),
      Buffer.from('{"progressToken": not json\n'),
    ])
      expect(markBadProgressToken(given)).toBe(given);
  });

  it('swaps a token of the wrong type for the mark that says what it was', () => {
    const cases: Array<[unknown, string]> = [
      [{nested: true}, 'an object'],
      [true, 'a boolean'],
      [null, 'null'],
      [['a'], 'a list'],
      [1.5, 'the number 1.5, which is not whole'],
    ];
    for (const [token, kind] of cases) {
      const marked = JSON.parse(markBadProgressToken(line(request({progressToken: token, other: 1}))).toString('utf8'));
      expect(marked.params._meta, JSON.stringify(token)).toEqual({other: 1, [BAD_TOKEN_MARK]: kind});
      expect(badProgressToken(marked.params)).toBe(kind);
    }
    expect(badProgressToken(request({progressToken: 'abc'}).params)).toBeUndefined();
    expect(badProgressToken(undefined)).toBeUndefined();
  });

  it('is applied by the line guard to each line it lets through', async () => {
    const guard = new LineGuard(() => undefined);
    const out: Buffer[] = [];
    guard.on('data', (chunk: Buffer) => out.push(chunk));
    guard.write(Buffer.concat([line(request({progressToken: {}})), line(request({progressToken: 'ok'}))]));
    guard.end();
    await new Promise((resolve) => guard.on('end', resolve));
    const [first, second] = Buffer.concat(out).toString('utf8').trim().split('\n');
    expect(JSON.parse(first!).params._meta).toEqual({[BAD_TOKEN_MARK]: 'an object'});
    expect(JSON.parse(second!).params._meta).toEqual({progressToken: 'ok'});
  });
});
