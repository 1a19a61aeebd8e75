import type {ToolContext} from '../../tools/registry-types.js';
import type {Completable} from '../completions.js';
import type {ResourceText} from '../resources/read.js';

export type PromptAnswer = {
  description: string;
  messages: {role: 'user' | 'assistant'; content: {type: 'text'; text: string} | {type: 'resource'; resource: ResourceText}}[];
};

/** A prompt as prompts/list shows it, what completes each argument, and how prompts/get builds it. */
export interface PromptDefinition {
  name: string;
  title: string;
  description: string;
  arguments: {name: string; description: string; required: boolean; completes: Completable}[];
  /** Gets the arguments checked: the required ones present, no others. */
  get(args: Record<string, string>, context: ToolContext): Promise<PromptAnswer>;
}
