/**
 * `workbench agent perms test "<tool>" "<argument>"`: what the rules of the project say about one
 * call, part by part for a compound shell command, with the rule that decided each part. The exit
 * code is the verdict, for scripts: 0 allow, 1 deny, 2 ask (an error in the input or the config
 * also exits 1, with nothing on stdout and the message on stderr).
 */
import {WorkbenchError} from '../../core/errors.js';
import {toTerminalLine} from '../../text/terminal-safe.js';
import type {PermissionAction, PermissionDecision, PermissionRule, PermissionTool} from '../types.js';
import {decide} from './decide.js';

export const PERMISSION_TOOLS: readonly PermissionTool[] = ['read', 'edit', 'shell', 'workbench'];
export const EXIT_CODE: Record<PermissionAction, number> = {allow: 0, deny: 1, ask: 2};

export function permissionTool(text: string): PermissionTool {
  if ((PERMISSION_TOOLS as readonly string[]).includes(text)) return text as PermissionTool;
  throw new WorkbenchError('invalid_argument', `unknown tool ${JSON.stringify(text)}: expected read, edit, shell or workbench`);
}

export interface Explanation {
  tool: PermissionTool;
  argument: string;
  decision: PermissionDecision;
  /** Where the rules came from: `.workbench.kdl (3 rules)` or `no .workbench.kdl`. */
  rulesFrom: string;
  rules: PermissionRule[];
}

export function explain(rules: PermissionRule[], tool: PermissionTool, argument: string, rulesFrom: string, safeByDefault = false): Explanation {
  return {tool, argument, decision: decide(rules, tool, argument, {safeByDefault}), rulesFrom, rules};
}

/** The explanation for people: each part, the rule that decided it, then the result. */
export function formatExplanation(explanation: Explanation): string {
  const {decision} = explanation;
  const lines = [`${explanation.tool} ${JSON.stringify(toTerminalLine(explanation.argument))}`, `rules: ${explanation.rulesFrom}`];
  if (decision.parts && decision.parts.length > 0) {
    decision.parts.forEach((part, index) => {
      lines.push(`  part ${index + 1} ${JSON.stringify(toTerminalLine(part.text))}: ${part.decision.action} — ${toTerminalLine(part.decision.reason)}`);
    });
  }
  lines.push(`result: ${decision.action} — ${toTerminalLine(decision.reason)}`);
  return `${lines.join('\n')}\n`;
}

/** The JSON face: the decision as the agent's transcript carries it. */
export function explanationJson(explanation: Explanation): Record<string, unknown> {
  return {tool: explanation.tool, argument: explanation.argument, rulesFrom: explanation.rulesFrom, ...explanation.decision};
}
