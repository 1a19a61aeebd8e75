import {homedir} from 'node:os';
import {describeNoCredential} from '../../agent/credentials/describe.js';
import {resolveCredential} from '../../agent/credentials/resolve.js';
import {pickTransport} from '../../agent/transport/endpoint.js';
import {openTransport} from '../../agent/transport/open.js';
import type {ModelTransport, ResolvedCredential} from '../../agent/types.js';
import {WorkbenchError} from '../../core/errors.js';
import type {GqlSettings} from '../types.js';

/**
 * The model endpoint of `GqlService:Chat:*`: the key from `ApiKey` when set (sent as the
 * transport's own kind: `x-api-key` on messages, a bearer token on chat-completions), else the
 * agent's credential chain in the spec's order (the server's environment, its `.env.local`, …).
 */
export async function openChatModel(chat: GqlSettings['chat'] = {}, env: NodeJS.ProcessEnv = process.env): Promise<{transport: ModelTransport; model: string}> {
  let credential: ResolvedCredential;
  if (chat.apiKey !== undefined && chat.apiKey.trim() !== '') {
    credential = {step: 'argument', source: 'GqlService:Chat:ApiKey', kind: 'api-key', secret: chat.apiKey.trim()};
  } else {
    const report = await resolveCredential({baseUrl: chat.baseUrl, discovery: true, cwd: process.cwd(), env, home: env.HOME ?? homedir()});
    if (!report.credential)
      throw new WorkbenchError('model_unreachable', `the chat has no model credential: set GqlService:Chat:ApiKey, or ${describeNoCredential(report).split('\n')[0]}`);
    credential = report.credential;
  }
  const transport = chat.api ?? pickTransport('auto', credential);
  return openTransport({transport, ...(chat.baseUrl ? {baseUrl: chat.baseUrl} : {}), ...(chat.model ? {model: chat.model} : {}), credential});
}
