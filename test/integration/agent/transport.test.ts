import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {startModelEndpoint, type ModelEndpoint} from '../../../fixtures/model-endpoint/stand-in.js';
import {closedPort} from '../../helpers/test-network.js';
import {chatCompletionsEndpoint, messagesEndpoint, pickTransport} from '../../../source/agent/transport/endpoint.js';
import {openTransport} from '../../../source/agent/transport/open.js';
import type {ModelTurnRequest, ResolvedCredential, Transport} from '../../../source/agent/types.js';

const KEY = 'sk-test-0123456789abcdef';
const apiKey = (source = 'MESSAGES_API_KEY'): ResolvedCredential => ({step: 'environment', source, kind: 'api-key', secret: KEY});
const bearer = (extraHeaders: Record<string, string> = {}): ResolvedCredential => ({
  step: 'sign-in',
  source: 'sign-in gateway',
  kind: 'bearer',
  secret: KEY,
  signIn: {provider: 'gateway', expiresAt: null, baseUrl: '', extraHeaders, refreshed: false},
});

const request = (overrides: Partial<ModelTurnRequest> = {}): ModelTurnRequest => ({
  model: 'test-model',
  system: 'be brief',
  messages: [{role: 'user', text: 'hello'}],
  tools: [{name: 'read_file', description: 'reads a file', inputSchema: {type: 'object', properties: {path: {type: 'string'}}, required: ['path']}}],
  maxTokens: 100,
  ...overrides,
});

let model: ModelEndpoint;
beforeEach(async () => {
  model = await startModelEndpoint({key: KEY});
});
afterEach(async () => {
  await model.close();
});

/** The base each transport wants: no version for messages, the version for chat-completions. */
const baseFor = (transport: Transport, url: string) => (transport === 'messages' ? url : `${url}/v1`);

describe.each(['messages', 'chat-completions'] as const)('the %s transport through the official SDK', (kind) => {
  const credential = kind === 'messages' ? apiKey() : bearer();
  const open = (overrides: {baseUrl?: string; credential?: ResolvedCredential; timeoutMs?: number} = {}) =>
    openTransport({transport: kind, baseUrl: overrides.baseUrl ?? baseFor(kind, model.url), credential: overrides.credential ?? credential, timeoutMs: overrides.timeoutMs});

  it('streams the text in pieces before the turn resolves, with the usage counts', async () => {
    model.reply({text: ['Hel', 'lo ', 'there'], usage: {input: 42, output: 7}});
    const {transport} = await open();
    const pieces: string[] = [];
    const result = await transport.turn(request(), (text) => pieces.push(text));
    expect(pieces).toEqual(['Hel', 'lo ', 'there']);
    expect(result.text).toBe('Hello there');
    expect(result.usage).toEqual({input: 42, output: 7});
    expect(result.toolCalls).toEqual([]);
    expect(model.requests[0]?.path).toBe(kind === 'messages' ? '/v1/messages' : '/v1/chat/completions');
    expect(transport.endpoint).toBe(`${model.url}${model.requests[0]?.path}`);
  });

  it('returns the tool calls, and sends their results back in the wire shape', async () => {
    model.reply({text: 'Let me look.', toolCalls: [{name: 'read_file', input: {path: 'a.txt'}, id: 'call_a'}]}, {text: 'It says hi.'});
    const {transport} = await open();
    const first = await transport.turn(request(), () => {});
    expect(first.toolCalls).toEqual([{id: 'call_a', name: 'read_file', input: {path: 'a.txt'}}]);
    const messages = [
      {role: 'user' as const, text: 'hello'},
      {role: 'assistant' as const, text: first.text, toolCalls: first.toolCalls},
      {role: 'tool' as const, results: [{callId: 'call_a', content: 'hi', isError: false}]},
      {role: 'user' as const, text: 'and then?'},
    ];
    const second = await transport.turn(request({messages}), () => {});
    expect(second.text).toBe('It says hi.');
    const sent = model.requests[1]?.body;
    if (kind === 'messages') {
      expect(sent.messages[1]).toEqual({
        role: 'assistant',
        content: [
          {type: 'text', text: 'Let me look.'},
          {type: 'tool_use', id: 'call_a', name: 'read_file', input: {path: 'a.txt'}},
        ],
      });
      // The results and the next prompt share one user message: the roles alternate.
      expect(sent.messages[2]).toEqual({
        role: 'user',
        content: [
          {type: 'tool_result', tool_use_id: 'call_a', content: 'hi'},
          {type: 'text', text: 'and then?'},
        ],
      });
      expect(sent.system).toBe('be brief');
      expect(sent.tools[0]).toMatchObject({name: 'read_file', input_schema: {type: 'object'}});
    } else {
      expect(sent.messages[0]).toEqual({role: 'system', content: 'be brief'});
      expect(sent.messages[2]).toMatchObject({role: 'assistant', tool_calls: [{id: 'call_a', type: 'function', function: {name: 'read_file', arguments: '{"path":"a.txt"}'}}]});
      expect(sent.messages[3]).toEqual({role: 'tool', tool_call_id: 'call_a', content: 'hi'});
      expect(sent.tools[0]).toMatchObject({type: 'function', function: {name: 'read_file'}});
      expect(sent.stream_options).toEqual({include_usage: true});
    }
  });

  it('passes arguments that are not JSON on as text, for the tool to refuse', async () => {
    model.reply({toolCalls: [{name: 'edit_file', rawArguments: '{"path": "a.txt", '}]});
    const {transport} = await open();
    const result = await transport.turn(request(), () => {});
    expect(result.toolCalls[0]?.input).toBe('{"path": "a.txt", ');
  });

  it('says plainly that the key was refused (401), naming its source and never the key', async () => {
    const {transport} = await open({credential: kind === 'messages' ? {...apiKey('.env.local MESSAGES_API_KEY'), secret: 'sk-wrong'} : {...bearer(), secret: 'sk-wrong'}});
    const failure = await transport.turn(request(), () => {}).catch((error: Error) => error);
    expect(failure).toMatchObject({code: 'unauthorized'});
    expect((failure as Error).message).toMatch(
      kind === 'messages' ? /refused the credential from \.env\.local MESSAGES_API_KEY \(401\): authentication_error: invalid x-api-key/ : /\(401\).*Incorrect API key/,
    );
    expect((failure as Error).message).not.toContain('sk-wrong');
  });

  it('names an endpoint that is down', async () => {
    const port = await closedPort();
    const {transport} = await open({baseUrl: baseFor(kind, `http://127.0.0.1:${port}`)});
    await expect(transport.turn(request(), () => {})).rejects.toMatchObject({
      code: 'model_unreachable',
      message: expect.stringMatching(/127\.0\.0\.1:\d+.* is not reachable: ECONNREFUSED/),
    });
  });

  it('gives up on a slow endpoint with a sentence', async () => {
    model.delayMs = 3000;
    const {transport} = await open({timeoutMs: 300});
    await expect(transport.turn(request(), () => {})).rejects.toMatchObject({code: 'model_unreachable', message: expect.stringContaining('did not answer in time')});
  });

  it('names an HTML answer as a page, not the API', async () => {
    model.fault = 'html';
    const {transport} = await open();
    const failure = (await transport.turn(request(), () => {}).catch((error: Error) => error)) as Error;
    expect(failure.message).toMatch(/answered 502 with an HTML page \("502 Bad Gateway"\), not the .* API: check --base-url/);
    expect(failure.message).not.toContain('<html');
  });

  it('refuses a 200 that is not an event stream, and a garbage body', async () => {
    model.fault = 'html-200';
    const {transport} = await open();
    await expect(transport.turn(request(), () => {})).rejects.toMatchObject({code: 'model_error', message: expect.stringContaining('text/html')});
    model.fault = 'garbage';
    await expect(transport.turn(request(), () => {})).rejects.toMatchObject({code: 'model_error'});
  });

  it('reports a stream cut in the middle', async () => {
    model.fault = 'drop';
    model.reply({text: ['one ', 'two ', 'three'], pieceDelayMs: 20});
    const {transport} = await open();
    const pieces: string[] = [];
    const failure = await transport.turn(request(), (text) => pieces.push(text)).catch((error: Error) => error);
    expect(failure).toBeInstanceOf(Error);
    expect(pieces.join('')).not.toBe('one two three');
  });
});

describe('credentials and headers on the wire', () => {
  // @anthropic-ai/sdk 1.x sends an API key as a bearer token too; what matters is that it is ours.
  it('messages: the credential given, the sign-in extra headers beside a token; nothing from the environment', async () => {
    const saved = process.env.ANTHROPIC_API_KEY;
    process.env.ANTHROPIC_API_KEY = 'sk-from-the-environment';
    try {
      model.reply({text: 'a'}, {text: 'b'});
      await (await openTransport({transport: 'messages', baseUrl: model.url, credential: apiKey()})).transport.turn(request(), () => {});
      await (await openTransport({transport: 'messages', baseUrl: model.url, credential: bearer({'anthropic-beta': 'oauth-2025-04-20'})})).transport.turn(request(), () => {});
    } finally {
      if (saved === undefined) delete process.env.ANTHROPIC_API_KEY;
      else process.env.ANTHROPIC_API_KEY = saved;
    }
    expect(model.requests[0]?.headers['x-api-key'] ?? model.requests[0]?.headers.authorization).toMatch(KEY);
    expect(JSON.stringify(model.requests.map((sent) => sent.headers))).not.toContain('sk-from-the-environment');
    expect(model.requests[0]?.headers['anthropic-beta']).toBeUndefined();
    expect(model.requests[1]?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(model.requests[1]?.headers['x-api-key']).toBeUndefined();
    expect(model.requests[1]?.headers['anthropic-beta']).toBe('oauth-2025-04-20');
  });

  it('chat-completions: Bearer plus the extra headers', async () => {
    model.reply({text: 'a'});
    await (
      await openTransport({transport: 'chat-completions', baseUrl: `${model.url}/api/v1`, credential: bearer({'HTTP-Referer': 'https://example.test'})})
    ).transport.turn(request(), () => {});
    expect(model.requests[0]?.path).toBe('/api/v1/chat/completions');
    expect(model.requests[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(model.requests[0]?.headers['http-referer']).toBe('https://example.test');
  });
});

describe('endpoint rules (spec "Endpoint rules of Invoke-Agent")', () => {
  it('messages appends /v1/messages to a base without a version; chat-completions appends /chat/completions to the root', () => {
    expect(messagesEndpoint('https://gw.example/')).toBe('https://gw.example/v1/messages');
    expect(messagesEndpoint('https://gw.example/anthropic')).toBe('https://gw.example/anthropic/v1/messages');
    expect(chatCompletionsEndpoint('https://openrouter.ai/api/v1/')).toBe('https://openrouter.ai/api/v1/chat/completions');
  });

  it('explains a base with a doubled version instead of requesting it', async () => {
    for (const base of ['https://gw.example/v1', 'https://gw.example/api/v1/'])
      expect(() => messagesEndpoint(base)).toThrow(/already ends in a version segment.*\/v1\/v1\/messages.*HTML 404/);
    await expect(openTransport({transport: 'messages', baseUrl: `${model.url}/v1`, credential: apiKey()})).rejects.toThrow(`Use --base-url ${model.url}`);
    expect(model.requests).toHaveLength(0);
  });

  it('auto picks chat-completions with a sign-in, messages otherwise', () => {
    expect(pickTransport('auto', bearer())).toBe('chat-completions');
    expect(pickTransport('auto', apiKey())).toBe('messages');
    expect(pickTransport('messages', bearer())).toBe('messages');
  });

  it('never sends a model request to a link-local or metadata address', async () => {
    for (const base of ['http://169.254.169.254', 'http://[fe80::1]:8080', 'http://[::ffff:169.254.169.254]'])
      await expect(openTransport({transport: 'messages', baseUrl: base, credential: apiKey()})).rejects.toMatchObject({
        code: 'forbidden',
        message: expect.stringContaining('link-local'),
      });
  });
});

describe('errors never carry the secret', () => {
  it('an endpoint that echoes the key back has it redacted', async () => {
    const {modelError} = await import('../../../source/agent/transport/errors.js');
    const echoed = Object.assign(new Error(`401 {"error":{"message":"bad key ${KEY}"}}`), {status: 401, error: {error: {message: `bad key ${KEY}`, type: 'authentication_error'}}});
    const failure = modelError(echoed, {secret: KEY, endpoint: 'http://127.0.0.1:1/v1/messages', transport: 'messages', source: 'MESSAGES_API_KEY', baseUrl: 'http://127.0.0.1:1'});
    expect(failure.message).toContain('bad key [redacted]');
    expect(failure.message).not.toContain(KEY);
  });
});
