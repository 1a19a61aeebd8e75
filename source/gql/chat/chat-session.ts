import {describeErrorInFull} from '../../core/errors.js';
import type {AgentEvent, ChatSession, PermissionAsker, TranscriptRow} from '../../agent/types.js';
import type {DatabaseChat} from './chat-client.js';
import type {ConversationId} from './chat-store.js';
import type {ChatEvent} from './chat-service.js';

/**
 * A conversation with a served database as the Chat pane holds one: the chat's events become the
 * rows every other session shows (tool rows, streamed text, the answer), and a plan the model
 * proposes is put to the user with the pane's permission prompt once the turn ends — approved, it
 * runs through the chat's approval (stored, audited); denied, it stays a proposal.
 * The conversation goes on across messages: the first answer names it, later ones continue it.
 * Without an asker (a script) a plan is left waiting, with the command that approves it.
 */
export function databaseChatSession(
  chat: DatabaseChat,
  ask: PermissionAsker | undefined,
  options: {conversationId?: ConversationId} = {},
): ChatSession & {conversationId(): ConversationId | undefined} {
  let conversationId: ConversationId | undefined = options.conversationId;
  let controller: AbortController | undefined;
  return {
    kind: 'database',
    header: {kind: 'notice', text: `database chat: ${chat.where}`},
    async send(prompt, onEvent) {
      controller = new AbortController();
      const signal = controller.signal;
      const plans: Array<Extract<ChatEvent, {type: 'plan'}>> = [];
      let answer = '';
      let calls = 0;
      const row = (value: TranscriptRow) => onEvent({type: 'row', row: value});
      const onChatEvent = (event: ChatEvent): void => {
        switch (event.type) {
          case 'text':
            answer += event.text;
            onEvent({type: 'delta', text: event.text});
            return;
          case 'tool':
            // Text the model wrote before calling a tool is its own row, as in the agent loop.
            if (answer) row({kind: 'text', text: answer});
            answer = '';
            row({
              kind: 'tool',
              callId: `db-${++calls}`,
              tool: event.name,
              summary: event.summary,
              detail: `${JSON.stringify(event.arguments)}\n→ ${event.result}`,
              ...(event.isError ? {error: event.result} : {}),
            });
            return;
          case 'plan':
            plans.push(event);
            return;
          case 'done':
            conversationId = event.conversationId;
            row({kind: 'answer', text: answer});
            return;
          case 'error':
            if (event.conversationId !== '') conversationId = event.conversationId;
            row({kind: 'error', code: event.code, message: event.message});
        }
      };
      try {
        await chat.send({...(conversationId !== undefined ? {conversationId} : {}), message: prompt}, onChatEvent, signal);
      } catch (error) {
        row({kind: 'error', code: 'send_failed', message: describeErrorInFull(error)});
        return;
      }
      for (const plan of plans) await decide(chat, ask, plan, onEvent, signal);
    },
    cancel: () => controller?.abort(),
    close: async () => controller?.abort(),
    conversationId: () => conversationId,
  };
}

/** One proposed plan put to the user: its operations as the preview; runs only on a yes. */
async function decide(
  chat: DatabaseChat,
  ask: PermissionAsker | undefined,
  plan: Extract<ChatEvent, {type: 'plan'}>,
  onEvent: (event: AgentEvent) => void,
  signal: AbortSignal,
): Promise<void> {
  if (signal.aborted) return;
  const row = (value: TranscriptRow) => onEvent({type: 'row', row: value});
  if (!ask) {
    // No one to ask (a script, --json): the plan waits, and says how to run it.
    row({kind: 'notice', text: `plan ${String(plan.planId)} waits for approval: workbench gql chat approve ${String(plan.planId)}`});
    return;
  }
  const preview = plan.operations.map((operation) => `${operation.op} ${plan.table} ${JSON.stringify(operation.values)}`).join('\n');
  const answer = await ask({
    tool: 'workbench',
    argument: `plan ${String(plan.planId)}: ${plan.summary}`,
    decision: {action: 'ask', rule: null, reason: 'a plan changes data: it runs only when you approve it'},
    preview,
  });
  if (answer === 'deny') {
    row({kind: 'notice', text: `plan ${String(plan.planId)} not approved: nothing ran (it stays a proposal in the conversation)`});
    return;
  }
  try {
    const approval = await chat.approvePlan(plan.planId);
    row({kind: 'notice', text: `plan ${String(plan.planId)} ran: ${approval.affected} row${approval.affected === 1 ? '' : 's'} changed, approved by ${approval.approvedBy}`});
  } catch (error) {
    row({kind: 'error', code: 'plan_failed', message: `plan ${String(plan.planId)}: ${describeErrorInFull(error)}`});
  }
}
