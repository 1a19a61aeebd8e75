import Anthropic from '@anthropic-ai/sdk';
import {guardedFetch} from '../../net/index.js';
import type {ConversationMessage, ModelTransport, ToolImage, ModelTurnRequest, ModelTurnResult, ResolvedCredential, ToolCallRequest} from '../types.js';
import {messagesEndpoint} from './endpoint.js';
import {modelError, notAnEventStream} from './errors.js';
import {parseToolArguments} from './tool-arguments.js';

type MessageParam = Anthropic.MessageParam;
type ContentBlockParam = Anthropic.ContentBlockParam;

/**
 * The messages API through the official SDK: base without a version segment (the SDK requests
 * `<base>/v1/messages`), an API key as `x-api-key`, a token as `Authorization: Bearer`, a sign-in's
 * extra headers beside it. Every credential is passed explicitly (null for the other kind), so the
 * SDK never adds a key of its own from the environment to a request meant for a gateway.
 */
export function messagesTransport(options: {baseUrl: string; credential: ResolvedCredential; timeoutMs: number}): ModelTransport {
  const endpoint = messagesEndpoint(options.baseUrl);
  const {credential} = options;
  const client = new Anthropic({
    baseURL: options.baseUrl.replace(/\/+$/, ''),
    apiKey: credential.kind === 'api-key' ? credential.secret : null,
    authToken: credential.kind === 'bearer' ? credential.secret : null,
    defaultHeaders: credential.signIn?.extraHeaders,
    // A failure shows at once; the user asks again (a retry would double a slow 30 s wait).
    maxRetries: 0,
    // The SDK's logger would print to our terminal (at debug level, whole requests); failures come back as values.
    logLevel: 'off',
    // node:http with the address policy checked on the address connected to, kept alive across turns.
    fetch: guardedFetch({allowPrivate: true}),
    timeout: options.timeoutMs,
  });
  return {
    kind: 'messages',
    endpoint,
    async turn(request, onDelta) {
      try {
        return await streamTurn(client, request, onDelta);
      } catch (error) {
        throw modelError(error, {secret: credential.secret, endpoint, transport: 'messages', source: credential.source, baseUrl: options.baseUrl});
      }
    },
  };
}

async function streamTurn(client: Anthropic, request: ModelTurnRequest, onDelta: (text: string) => void): Promise<ModelTurnResult> {
  const {data: stream, response} = await client.messages
    .create(
      {
        model: request.model,
        max_tokens: request.maxTokens,
        system: request.system,
        messages: toMessages(request.messages),
        tools: request.tools.map((tool) => ({name: tool.name, description: tool.description, input_schema: tool.inputSchema as Anthropic.Tool.InputSchema})),
        stream: true,
      },
      {signal: request.signal},
    )
    .withResponse();
  if (!(response.headers.get('content-type') ?? '').includes('text/event-stream')) throw notAnEventStream(response.status, response.headers.get('content-type'));
  let text = '';
  let stopReason = '';
  const usage = {input: 0, output: 0};
  // Tool arguments arrive as pieces of JSON text per content block; parsed when the block ends.
  const blocks = new Map<number, {id: string; name: string; json: string}>();
  const toolCalls: ToolCallRequest[] = [];
  let started = false;
  for await (const event of stream) {
    switch (event.type) {
      case 'message_start':
        started = true;
        usage.input = event.message.usage.input_tokens ?? 0;
        usage.output = event.message.usage.output_tokens ?? 0;
        break;
      case 'content_block_start':
        if (event.content_block.type === 'tool_use') blocks.set(event.index, {id: event.content_block.id, name: event.content_block.name, json: ''});
        break;
      case 'content_block_delta':
        if (event.delta.type === 'text_delta') {
          text += event.delta.text;
          onDelta(event.delta.text);
        } else if (event.delta.type === 'input_json_delta') {
          const block = blocks.get(event.index);
          if (block) block.json += event.delta.partial_json;
        }
        break;
      case 'content_block_stop': {
        const block = blocks.get(event.index);
        if (block) toolCalls.push({id: block.id, name: block.name, input: parseToolArguments(block.json)});
        break;
      }
      case 'message_delta':
        stopReason = event.delta.stop_reason ?? stopReason;
        usage.output = event.usage.output_tokens ?? usage.output;
        if (event.usage.input_tokens) usage.input = event.usage.input_tokens;
        break;
    }
  }
  if (!started) throw notAnEventStream(response.status, 'an event stream without a message');
  return {text, toolCalls, usage, stopReason};
}

/**
 * The neutral conversation in the messages API's shape: tool results travel in a user message,
 * and consecutive user messages (results, then the next prompt) are joined into one, since the
 * API wants the roles to alternate.
 */
export function toMessages(conversation: readonly ConversationMessage[]): MessageParam[] {
  const out: MessageParam[] = [];
  const push = (role: 'user' | 'assistant', blocks: ContentBlockParam[]) => {
    const last = out.at(-1);
    if (last && last.role === role && Array.isArray(last.content)) last.content.push(...blocks);
    else out.push({role, content: blocks});
  };
  for (const message of conversation) {
    if (message.role === 'user') push('user', [{type: 'text', text: message.text || ' '}]);
    else if (message.role === 'tool')
      push(
        'user',
        message.results.map((result) => ({
          type: 'tool_result' as const,
          tool_use_id: result.callId,
          content: result.images?.length ? [{type: 'text' as const, text: result.content || '(no output)'}, ...result.images.map(imageBlock)] : result.content || '(no output)',
          is_error: result.isError || undefined,
        })),
      );
    else {
      const blocks: ContentBlockParam[] = [];
      if (message.text) blocks.push({type: 'text', text: message.text});
      for (const call of message.toolCalls)
        blocks.push({type: 'tool_use', id: call.id, name: call.name, input: typeof call.input === 'object' && call.input !== null ? (call.input as Record<string, unknown>) : {}});
      if (blocks.length === 0) blocks.push({type: 'text', text: '(no answer)'});
      push('assistant', blocks);
    }
  }
  return out;
}

/** A tool's image as a messages-API image block: base64 bytes or a URL source. */
function imageBlock(image: ToolImage): Anthropic.ImageBlockParam {
  return 'url' in image ? {type: 'image', source: {type: 'url', url: image.url}} : {type: 'image', source: {type: 'base64', media_type: image.mediaType, data: image.data}};
}
