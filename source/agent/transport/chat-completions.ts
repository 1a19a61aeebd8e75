import OpenAI from 'openai';
import {guardedFetch} from '../../net/index.js';
import type {ConversationMessage, ModelTransport, ModelTurnRequest, ModelTurnResult, ResolvedCredential, ToolCallRequest} from '../types.js';
import {chatCompletionsEndpoint} from './endpoint.js';
import {modelError, notAnEventStream} from './errors.js';
import {parseToolArguments} from './tool-arguments.js';

type ChatMessage = OpenAI.Chat.ChatCompletionMessageParam;

/**
 * Any `/chat/completions` endpoint through the official `openai` SDK: the base includes its
 * version segment, the credential goes as `Authorization: Bearer`, a sign-in's extra headers
 * beside it. Organisation and project are set to null so the SDK adds none from the environment.
 */
export function chatCompletionsTransport(options: {baseUrl: string; credential: ResolvedCredential; timeoutMs: number}): ModelTransport {
  const endpoint = chatCompletionsEndpoint(options.baseUrl);
  const {credential} = options;
  const client = new OpenAI({
    baseURL: options.baseUrl.replace(/\/+$/, ''),
    apiKey: credential.secret,
    organization: null,
    project: null,
    defaultHeaders: credential.signIn?.extraHeaders,
    maxRetries: 0,
    // The SDK's logger would print to our terminal (at debug level, whole requests); failures come back as values.
    logLevel: 'off',
    // node:http with the address policy checked on the address connected to, kept alive across turns.
    fetch: guardedFetch({allowPrivate: true}),
    timeout: options.timeoutMs,
  });
  return {
    kind: 'chat-completions',
    endpoint,
    async turn(request, onDelta) {
      try {
        return await streamTurn(client, request, onDelta);
      } catch (error) {
        throw modelError(error, {secret: credential.secret, endpoint, transport: 'chat-completions', source: credential.source, baseUrl: options.baseUrl});
      }
    },
  };
}

async function streamTurn(client: OpenAI, request: ModelTurnRequest, onDelta: (text: string) => void): Promise<ModelTurnResult> {
  const {data: stream, response} = await client.chat.completions
    .create(
      {
        model: request.model,
        messages: toChatMessages(request.system, request.messages),
        ...(request.tools.length
          ? {tools: request.tools.map((tool) => ({type: 'function' as const, function: {name: tool.name, description: tool.description, parameters: tool.inputSchema}}))}
          : {}),
        stream: true,
        stream_options: {include_usage: true},
      },
      {signal: request.signal},
    )
    .withResponse();
  if (!(response.headers.get('content-type') ?? '').includes('text/event-stream')) throw notAnEventStream(response.status, response.headers.get('content-type'));
  let text = '';
  let stopReason = '';
  let chunks = 0;
  const usage = {input: 0, output: 0};
  // Tool calls arrive in pieces keyed by index: the id and name first, the arguments in parts.
  const calls = new Map<number, {id: string; name: string; json: string}>();
  for await (const chunk of stream) {
    chunks += 1;
    if (chunk.usage) {
      usage.input = chunk.usage.prompt_tokens ?? usage.input;
      usage.output = chunk.usage.completion_tokens ?? usage.output;
    }
    const choice = chunk.choices?.[0];
    if (!choice) continue;
    const delta = choice.delta;
    if (delta?.content) {
      text += delta.content;
      onDelta(delta.content);
    }
    for (const piece of delta?.tool_calls ?? []) {
      const call = calls.get(piece.index) ?? {id: '', name: '', json: ''};
      if (piece.id) call.id = piece.id;
      if (piece.function?.name) call.name += piece.function.name;
      if (piece.function?.arguments) call.json += piece.function.arguments;
      calls.set(piece.index, call);
    }
    if (choice.finish_reason) stopReason = choice.finish_reason;
  }
  if (chunks === 0) throw notAnEventStream(response.status, 'an event stream without a chunk');
  const toolCalls: ToolCallRequest[] = [...calls.entries()]
    .sort(([a], [b]) => a - b)
    .map(([index, call]) => ({id: call.id || `call_${index}`, name: call.name, input: parseToolArguments(call.json)}));
  return {text, toolCalls, usage, stopReason};
}

/** The neutral conversation as chat messages: the system prompt first, each tool result its own `tool` message. */
export function toChatMessages(system: string, conversation: readonly ConversationMessage[]): ChatMessage[] {
  const out: ChatMessage[] = [{role: 'system', content: system}];
  for (const message of conversation) {
    if (message.role === 'user') out.push({role: 'user', content: message.text});
    else if (message.role === 'tool') {
      for (const result of message.results) out.push({role: 'tool', tool_call_id: result.callId, content: result.content || '(no output)'});
      // A tool message carries text only: the results' images follow in a user message, as vision input.
      const images = message.results.flatMap((result) => result.images ?? []);
      if (images.length > 0)
        out.push({
          role: 'user',
          content: [
            {type: 'text', text: 'Images returned by the tool calls above:'},
            ...images.map((image) => ({type: 'image_url' as const, image_url: {url: 'url' in image ? image.url : `data:${image.mediaType};base64,${image.data}`}})),
          ],
        });
    } else
      out.push({
        role: 'assistant',
        content: message.text || null,
        ...(message.toolCalls.length
          ? {
              tool_calls: message.toolCalls.map((call) => ({
                id: call.id,
                type: 'function' as const,
                function: {name: call.name, arguments: typeof call.input === 'string' ? call.input : JSON.stringify(call.input ?? {})},
              })),
            }
          : {}),
      });
  }
  return out;
}
