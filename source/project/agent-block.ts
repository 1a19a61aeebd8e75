/**
 * The `agent` block of `.workbench.kdl` (issue 11): the permission rules of `workbench agent` and
 * of ACP agents' permission requests, one node each, in the order they are written,
 *
 *     agent {
 *       allow "shell" "npm test*"
 *       ask "edit" "*"
 *       deny "shell" "rm -rf*"
 *     }
 *
 * Read here as the file's syntax allows; what the rules mean (precedence, defaults, compound shell
 * commands) is source/agent/permissions/decide.ts. The shape matches the agent's PermissionRule
 * (source/agent/types.ts) so the rules pass through as they are.
 */
import type {Node} from '@bgotink/kdl';
import {show} from './config-values.js';

export const AGENT_RULE_ACTIONS = ['allow', 'ask', 'deny'] as const;
export const AGENT_RULE_TOOLS = ['read', 'edit', 'shell', 'workbench', '*'] as const;

/** One rule: `allow "shell" "npm test*"` on line 3 is {action: 'allow', tool: 'shell', pattern: 'npm test*', source: '.workbench.kdl:3'}. */
export interface AgentRuleEntry {
  action: (typeof AGENT_RULE_ACTIONS)[number];
  tool: (typeof AGENT_RULE_TOOLS)[number];
  /** A glob over the whole argument: `*` any run of characters, `?` one. */
  pattern: string;
  /** `.workbench.kdl:<line>`: what a decision quotes. */
  source: string;
}

/**
 * Where the agent talks when no flag says (the Chat pane has no flags): `api "chat-completions"`,
 * `base-url "http://127.0.0.1:8080/v1"`, `model "…"`. A flag of `workbench agent` wins.
 */
export interface AgentEndpointSettings {
  api?: 'auto' | 'messages' | 'chat-completions';
  baseUrl?: string;
  model?: string;
}

const SETTINGS = {api: 'api', 'base-url': 'baseUrl', model: 'model'} as const;
const APIS = ['auto', 'messages', 'chat-completions'];

/** Reads one `agent { ... }` block, adding its rules to `rules` (several blocks add up, in file order) and its settings to `settings`. */
export function readAgentBlock(
  node: Node,
  rules: AgentRuleEntry[],
  lineOf: (node: Node) => number,
  fail: (line: number, message: string) => never,
  file: string,
  settings: AgentEndpointSettings = {},
): void {
  const blockLine = lineOf(node);
  if (node.hasArguments() || node.hasProperties()) fail(blockLine, 'agent takes no values, only a { } block of rules like allow "shell" "npm test*"');
  for (const entry of node.children?.nodes ?? []) {
    const line = lineOf(entry);
    const action = entry.getName();
    if (action in SETTINGS) {
      readSetting(entry, action as keyof typeof SETTINGS, settings, line, fail);
      continue;
    }
    if (!(AGENT_RULE_ACTIONS as readonly string[]).includes(action)) {
      fail(line, `agent: unknown rule "${action}" (expected allow, ask or deny, e.g. allow "shell" "npm test*", or a setting: api, base-url, model)`);
    }
    if ((entry.children?.nodes.length ?? 0) > 0 || entry.hasProperties()) fail(line, `agent.${action}: takes two values in quotes, e.g. ${action} "shell" "npm test*"`);
    const values = entry.getArguments();
    if (values.length !== 2)
      fail(line, `agent.${action}: expected a tool and a pattern in quotes, e.g. ${action} "shell" "npm test*", got ${values.length} value${values.length === 1 ? '' : 's'}`);
    const [tool, pattern] = values;
    if (typeof tool !== 'string' || !(AGENT_RULE_TOOLS as readonly string[]).includes(tool)) {
      fail(line, `agent.${action}: unknown tool ${show(tool)} (expected read, edit, shell, workbench or *)`);
    }
    if (typeof pattern !== 'string') fail(line, `agent.${action}: the pattern must be a string in quotes, got ${show(pattern)}`);
    if (pattern === '') fail(line, `agent.${action}: the pattern must not be empty (use "*" for any argument)`);
    rules.push({action: action as AgentRuleEntry['action'], tool: tool as AgentRuleEntry['tool'], pattern: pattern as string, source: `${file}:${line}`});
  }
}

function readSetting(entry: Node, name: keyof typeof SETTINGS, settings: AgentEndpointSettings, line: number, fail: (line: number, message: string) => never): void {
  const values = entry.getArguments();
  const value = values[0];
  if (values.length !== 1 || typeof value !== 'string' || (entry.children?.nodes.length ?? 0) > 0 || entry.hasProperties())
    fail(line, `agent.${name}: takes one value in quotes, e.g. ${name} ${name === 'api' ? '"messages"' : name === 'base-url' ? '"https://gateway.example"' : '"model-name"'}`);
  if (name === 'api' && !APIS.includes(value as string)) fail(line, `agent.api: expected auto, messages or chat-completions, got ${show(value)}`);
  if (name === 'base-url' && !/^https?:\/\/./.test(value as string)) fail(line, `agent.base-url: expected an http or https URL, got ${show(value)}`);
  if (name === 'model' && !(value as string).trim()) fail(line, 'agent.model: must not be empty');
  Object.assign(settings, {[SETTINGS[name]]: value});
}
