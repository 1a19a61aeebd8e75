import {mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join, resolve} from 'node:path';
import {onTestFinished} from 'vitest';
import {startModelEndpoint, type ScriptedReply} from '../../fixtures/model-endpoint/stand-in.js';
import {openAcpSession} from '../../source/agent/acp/session.js';
import {openAgentSession} from '../../source/agent/loop/session.js';
import {projectPermit} from '../../source/agent/permissions/project-permit.js';
import type {PermissionAnswer, PermissionAsker, PermissionRequest} from '../../source/agent/types.js';
import type {ChatOpeners} from '../../source/tui/ports/chat.js';

/**
 * The ONE place the Chat pane and inline chat tests get their sessions from: REAL sessions.
 * `openAgent` runs the agent loop (openAgentSession: credentials in the spec's order, the messages
 * transport through the official SDK, the real tools on a temp project, the permission rules)
 * against the model stand-in in fixtures/, whose replies are scripted by prompt below; `openAcp`
 * starts the real ACP client on the stub agent in fixtures/acp-agent (run from that folder, so
 * `node stub-agent.mjs` is a command that works).
 *
 * Prompts (what the stand-in answers):
 * - PROMPT.hello: streams `Hello` then ` there, friend.`, answers `Hello there, friend.`, usage 120 in / 30 out.
 * - PROMPT.edit: reads src/a.ts (allowed by default), edits it (asked: the preview is the diff),
 *   then answers ANSWER.edit, or ANSWER.editRefused when the edit was refused. Usage 400 / 50.
 * - PROMPT.shell: runs `npm test` (asked first; the project's test script prints SHELL_OUTPUT and
 *   exits 1), then answers ANSWER.shell. Usage 200 / 20.
 * - PROMPT.fail: the endpoint refuses the key (401): an error row FAILURE.
 * - PROMPT.slow: streams `Thinking` and waits until cancelled (error row `cancelled`).
 * - anything else: `You said: <prompt>`, usage 10 / 5.
 */
export const PROMPT = {
  hello: 'say hello',
  edit: 'fix the typo in src/a.ts',
  shell: 'run the tests',
  fail: 'break the endpoint',
  slow: 'think for a long time',
} as const;

export const ANSWER = {
  hello: 'Hello there, friend.',
  edit: 'Fixed the typo in src/a.ts.',
  editRefused: 'I was not allowed to edit src/a.ts.',
  shell: 'The tests fail: 1 failing.',
} as const;

export const EDIT_DIFF = '--- src/a.ts\n+++ src/a.ts\n@@ -1 +1 @@\n-cosnt a = 1;\n+const a = 1;';
export const SHELL_OUTPUT = 'FAIL test/a.test.ts\n  expected 1 to be 2\nTests: 1 failed';
/** The error row of PROMPT.fail, as the transport words a 401. */
export const FAILURE = 'error: the endpoint refused the credential from MESSAGES_API_KEY (401)';
/** The first line of the message when no credential resolves anywhere. */
export const NO_CREDENTIAL = 'No credential for the model endpoint. Tried, in order:';
/** The stand-in's messages endpoint, set when a chat is made (a live binding: read it after `await realChat()`). */
export let ENDPOINT = '';

const KEY = 'sk-chat-test-0123456789abcdef';
const ACP_FIXTURES = resolve(import.meta.dirname, '../../fixtures/acp-agent');

export interface ScriptedChat {
  openers: ChatOpeners;
  endpoint: string;
  /** Every permission request the session made, with the face's answer. */
  asked: Array<{request: PermissionRequest; answer: PermissionAnswer}>;
  /** Prompts the sessions received, in order. */
  prompts: string[];
  /** ACP agent commands opened. */
  acpCommands: string[];
  /** Holds PROMPT.hello between its streamed text and the rest of its answer until release() is called. */
  holdAnswer(): () => void;
}

/**
 * Real sessions over a temp project (src/a.ts with a typo, a package.json whose test fails) and a
 * model stand-in, both removed when the test finishes. `noCredential`: no key anywhere (an empty
 * environment and home), so opening fails naming what was tried.
 */
export async function scriptedChat(options: {noCredential?: boolean} = {}): Promise<ScriptedChat> {
  const dir = mkdtempSync(join(tmpdir(), 'wb-chat-'));
  const project = join(dir, 'project');
  mkdirSync(join(project, 'src'), {recursive: true});
  writeFileSync(join(project, 'src/a.ts'), 'cosnt a = 1;\n');
  const printOutput = SHELL_OUTPUT.split('\n')
    .map((line) => `console.log(${JSON.stringify(line)})`)
    .join(';');
  writeFileSync(join(project, 'package.json'), JSON.stringify({name: 'chat-test', private: true, scripts: {test: `node -e '${printOutput};process.exit(1)'`}}));
  // Sign-ins are looked for under XDG_CONFIG_HOME, and the commands the agent runs (npm) write
  // under HOME: never the real user's.
  const saved = {XDG_CONFIG_HOME: process.env.XDG_CONFIG_HOME, HOME: process.env.HOME};
  process.env.XDG_CONFIG_HOME = join(dir, 'config');
  process.env.HOME = dir;
  const model = await startModelEndpoint({key: KEY});
  ENDPOINT = `${model.url}/v1/messages`;
  onTestFinished(async () => {
    await model.close();
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    rmSync(dir, {recursive: true, force: true});
  });

  const asked: ScriptedChat['asked'] = [];
  const prompts: string[] = [];
  const acpCommands: string[] = [];
  let hold: Promise<void> | undefined;
  model.respond = ({body}) => {
    const reply = script(body?.messages ?? [], hold);
    if (reply.recordPrompt) prompts.push(reply.recordPrompt);
    return reply;
  };
  const recording =
    (ask: PermissionAsker): PermissionAsker =>
    async (request) => {
      const answer = await ask(request);
      asked.push({request, answer});
      return answer;
    };
  const env: NodeJS.ProcessEnv = {PATH: process.env.PATH, ...(options.noCredential ? {} : {MESSAGES_API_KEY: KEY})};

  return {
    endpoint: ENDPOINT,
    asked,
    prompts,
    acpCommands,
    holdAnswer() {
      let release!: () => void;
      hold = new Promise<void>((resolve) => (release = resolve));
      return () => {
        hold = undefined;
        release();
      };
    },
    openers: {
      openAgent: (ask) =>
        openAgentSession({api: 'messages', baseUrl: model.url, discovery: !options.noCredential, maxTurns: 10, yes: false, cwd: project, env, home: dir}, {ask: recording(ask)}),
      openAcp: async (command, ask) => {
        acpCommands.push(command);
        return openAcpSession(
          {agent: command, cwd: ACP_FIXTURES, autoApprove: false, connectTimeoutSeconds: 30, showAgentLog: false},
          await projectPermit(ACP_FIXTURES, {yes: false, ask: recording(ask), yesFlag: '--auto-approve'}),
        );
      },
    },
  };
}

type WireMessage = {role: string; content: string | Array<{type: string; text?: string; content?: unknown; is_error?: boolean}>};

/** The stand-in's answer to a conversation: by the last prompt, and by how many tool results came back since. */
function script(messages: WireMessage[], hold: Promise<void> | undefined): ScriptedReply & {recordPrompt?: string} {
  const texts = (message: WireMessage) =>
    typeof message.content === 'string' ? [message.content] : message.content.filter((part) => part.type === 'text').map((part) => part.text ?? '');
  const results = (message: WireMessage) => (typeof message.content === 'string' ? [] : message.content.filter((part) => part.type === 'tool_result'));
  const lastUser = [...messages].reverse().find((message) => message.role === 'user' && texts(message).length > 0);
  const prompt = lastUser ? (texts(lastUser).at(-1) ?? '') : '';
  const since = messages.slice(lastUser ? messages.lastIndexOf(lastUser) + 1 : 0);
  const answered = since.flatMap(results);
  // The prompt's own message may carry the results of the turn before (the roles alternate).
  const fresh = since.length === 0;
  const first = (reply: ScriptedReply) => ({...reply, ...(fresh ? {recordPrompt: prompt} : {})});
  switch (prompt) {
    case PROMPT.hello:
      return first({text: ['Hello', ' there, friend.'], usage: {input: 120, output: 30}, holdUntil: hold});
    case PROMPT.edit:
      if (answered.length === 0) return first({text: 'Reading it.', toolCalls: [{name: 'read_file', input: {path: 'src/a.ts'}}], usage: {input: 100, output: 10}});
      if (answered.length === 1)
        return {toolCalls: [{name: 'edit_file', input: {path: 'src/a.ts', old_string: 'cosnt a = 1;', new_string: 'const a = 1;'}}], usage: {input: 150, output: 20}};
      return {text: answered[1]?.is_error ? ANSWER.editRefused : ANSWER.edit, usage: {input: 150, output: 20}};
    case PROMPT.shell:
      if (answered.length === 0) return first({toolCalls: [{name: 'run_shell', input: {command: 'npm test'}}], usage: {input: 100, output: 10}});
      return {text: ANSWER.shell, usage: {input: 100, output: 10}};
    case PROMPT.fail:
      return {...first({}), fail: 'unauthorized'};
    case PROMPT.slow:
      return first({text: 'Thinking', holdUntil: new Promise(() => {})});
    default:
      return first({text: `You said: ${prompt}`, usage: {input: 10, output: 5}});
  }
}
