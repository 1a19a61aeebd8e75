import {fitArray, fitText} from '../tools/budget.js';
import type {RegisteredTool, ToolOutcome} from '../tools/registry.js';

export type ToolAnswer = {content: {type: 'text'; text: string}[]; structuredContent?: Record<string, unknown>; isError?: boolean};

/** A tool error: one JSON object with one field `error` (spec 1's get_errors shape, used by every tool). */
export function toolError(message: string): ToolAnswer {
  return {content: [{type: 'text', text: JSON.stringify({error: message})}], isError: true};
}

/**
 * A tool's outcome as an MCP answer within the budget: the compact text (or the raw JSON when
 * `raw` asks for it on a JSON-shaped tool) and the structured content, each cut to fit with a
 * line that says so and how to get the rest.
 */
export function fitAnswer(tool: RegisteredTool, outcome: ToolOutcome, budget: number): ToolAnswer {
  const hint = `narrow the call (${Object.keys(tool.input.shape)
    .filter((key) => ['limit', 'process_id', 'since', 'tail', 'grep', 'unread', 'id'].includes(key))
    .join(', ')})`;
  const content: ToolAnswer['content'] = [];
  if (outcome.args.raw === true && tool.jsonRaw) {
    if (Array.isArray(outcome.raw)) {
      const {items, dropped} = fitArray(outcome.raw, budget);
      content.push({type: 'text', text: JSON.stringify(items, null, 2)});
      if (dropped) content.push({type: 'text', text: `[${dropped} more left out to fit ${budget} characters: ${hint}]`});
    } else content.push({type: 'text', text: fitText(JSON.stringify(outcome.raw, null, 2), {keep: 'head', budget, hint}).text});
  } else content.push({type: 'text', text: fitText(outcome.text, {keep: 'head', budget, hint}).text});
  const answer: ToolAnswer = {content, structuredContent: fitStructured(outcome.structured, budget)};
  // The values are still given (what did answer); isError tells the client the call failed.
  if (outcome.failure !== undefined) answer.isError = true;
  return answer;
}

/** Lists in the structured content are cut like the text; `shown` says how many stayed. */
function fitStructured(structured: Record<string, unknown>, budget: number): Record<string, unknown> {
  if (JSON.stringify(structured).length <= budget) return structured;
  const fitted: Record<string, unknown> = {...structured};
  for (const [key, value] of Object.entries(structured)) {
    if (!Array.isArray(value)) continue;
    const {items} = fitArray(value, budget);
    fitted[key] = items;
    if ('shown' in fitted) fitted.shown = items.length;
  }
  return fitted;
}
