import type {AgentEvent, ChatSession, PermissionAnswer, PermissionAsker, PermissionRequest, TranscriptRow} from '../../source/agent/types.js';
import {WorkbenchError} from '../../source/core/errors.js';
import type {ChatOpeners} from '../../source/tui/ports/chat.js';

/**
 * The ONE place the Chat pane and inline chat tests get their sessions from. For now a scripted
 * ChatSession that emits events of the contract's shape (types.ts: deltas of the live turn, then
 * finished rows); at merge this file opens the real sessions (openAgentSession against the
 * model stand-in in fixtures/, openAcpSession against the stub agent) and the tests stay as they
 * are: they send the prompts below and assert what any session must produce for them.
 *
 * Prompts (what the stand-in's script answers):
 * - PROMPT.hello: streams `Hello` then ` there, friend.`, answers `Hello there, friend.`, usage 120 in / 30 out.
 * - PROMPT.edit: reads src/a.ts (a tool row, allowed by default), asks to edit it (preview: a
 *   diff), edits on allow (row with the diff as detail) or reports the refusal, then answers.
 * - PROMPT.shell: runs `npm test` (asked first), exit 1 with the output as detail, then answers.
 * - PROMPT.fail: the endpoint fails: an error row.
 * - PROMPT.slow: streams `Thinking` and waits until cancelled (error row `cancelled`).
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

export interface ScriptedChat {
  openers: ChatOpeners;
  /** Every permission request the session made, with the face's answer. */
  asked: Array<{request: PermissionRequest; answer: PermissionAnswer}>;
  /** Prompts the sessions received, in order. */
  prompts: string[];
  /** ACP agent commands opened. */
  acpCommands: string[];
  /** Holds PROMPT.hello between its streamed text and its answer row until release() is called. */
  holdAnswer(): () => void;
}

export const NO_CREDENTIAL = 'no credential for the model endpoint (tried --api-key, MESSAGES_API_KEY, .env.local, sign-in)';
export const ENDPOINT = 'http://127.0.0.1:9/v1/messages';

/**
 * `noCredential`: the model endpoint cannot be reached for want of a credential (a real session:
 * a sandbox with no key anywhere), so opening fails with a message naming what was tried.
 */
export function scriptedChat(options: {noCredential?: boolean} = {}): ScriptedChat {
  const asked: ScriptedChat['asked'] = [];
  const prompts: string[] = [];
  const acpCommands: string[] = [];
  let hold: Promise<void> | undefined;

  const session = (kind: 'agent' | 'acp', header: TranscriptRow, ask: PermissionAsker): ChatSession => {
    let cancelled: (() => void) | undefined;
    const permission = async (request: PermissionRequest) => {
      const answer = await ask(request);
      asked.push({request, answer});
      return answer;
    };
    return {
      kind,
      header,
      async send(prompt, onEvent: (event: AgentEvent) => void) {
        prompts.push(prompt);
        const row = (value: TranscriptRow) => onEvent({type: 'row', row: value});
        const delta = (text: string) => onEvent({type: 'delta', text});
        if (prompt === PROMPT.hello) {
          delta('Hello');
          delta(' there, friend.');
          if (hold) await hold;
          row({kind: 'answer', text: ANSWER.hello});
          row({kind: 'usage', input: 120, output: 30, turns: 1});
        } else if (prompt === PROMPT.edit) {
          row({
            kind: 'tool',
            callId: 'c1',
            tool: 'read_file',
            summary: 'read src/a.ts (42 lines)',
            detail: 'cosnt a = 1;',
            decision: {action: 'allow', rule: null, reason: 'reads are allowed by default'},
          });
          const decision = {action: 'ask' as const, rule: null, reason: 'edits ask by default'};
          const answer = await permission({tool: 'edit', argument: 'src/a.ts', decision, preview: EDIT_DIFF});
          if (answer === 'deny') {
            row({
              kind: 'tool',
              callId: 'c2',
              tool: 'edit_file',
              summary: 'edit src/a.ts',
              error: 'denied by the user',
              decision: {...decision, action: 'deny', reason: 'denied by the user'},
            });
            delta(ANSWER.editRefused);
            row({kind: 'answer', text: ANSWER.editRefused});
          } else {
            row({
              kind: 'tool',
              callId: 'c2',
              tool: 'edit_file',
              summary: 'edit src/a.ts (+1 -1)',
              detail: EDIT_DIFF,
              decision: {...decision, action: 'allow', reason: 'allowed by the user'},
            });
            delta(ANSWER.edit);
            row({kind: 'answer', text: ANSWER.edit});
          }
          row({kind: 'usage', input: 400, output: 50, turns: 3});
        } else if (prompt === PROMPT.shell) {
          const decision = {action: 'ask' as const, rule: null, reason: 'shell commands ask by default'};
          const answer = await permission({tool: 'shell', argument: 'npm test', decision, preview: 'npm test'});
          if (answer === 'deny') row({kind: 'tool', callId: 's1', tool: 'run_shell', summary: 'shell npm test', error: 'denied by the user'});
          else row({kind: 'tool', callId: 's1', tool: 'run_shell', summary: 'shell npm test → exit 1', detail: SHELL_OUTPUT, exitCode: 1});
          row({kind: 'answer', text: ANSWER.shell});
          row({kind: 'usage', input: 200, output: 20, turns: 2});
        } else if (prompt === PROMPT.fail) {
          row({kind: 'error', code: 'unauthorized', message: `the endpoint ${ENDPOINT} refused the key (401)`});
        } else if (prompt === PROMPT.slow) {
          delta('Thinking');
          await new Promise<void>((resolve) => (cancelled = resolve));
          row({kind: 'error', code: 'cancelled', message: 'cancelled'});
        } else {
          row({kind: 'answer', text: `You said: ${prompt}`});
          row({kind: 'usage', input: 10, output: 5, turns: 1});
        }
      },
      cancel() {
        cancelled?.();
      },
      async close() {
        cancelled?.();
      },
    };
  };

  return {
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
      openAgent: async (ask) => {
        if (options.noCredential) throw new WorkbenchError('unauthorized', NO_CREDENTIAL);
        return session('agent', {kind: 'auth', step: 'environment', source: 'MESSAGES_API_KEY', endpoint: ENDPOINT, transport: 'messages'}, ask);
      },
      openAcp: async (command, ask) => {
        acpCommands.push(command);
        return session('acp', {kind: 'notice', text: `acp: ${command} (stub agent)`}, ask);
      },
    },
  };
}
