/**
 * The one gate every tool call passes: the rules decide (decide.ts); a deny refuses, an allow
 * runs, an ask is answered by --yes, else by the face's asker (the terminal or the Chat pane),
 * else refused with how to allow it. Every outcome carries the decision that made it, so the
 * transcript can say which rule let a command run or stopped it.
 */
import type {Permit, PermissionAsker, PermissionDecision, PermissionRule, PermissionTool} from '../types.js';
import {decide} from './decide.js';

export interface PermitOptions {
  rules: PermissionRule[];
  /** --yes / --auto-approve: an ask is allowed (a deny still denies). */
  yes: boolean;
  /** The face's prompt; absent when there is nobody to ask (no terminal). */
  ask?: PermissionAsker;
  /** Whether a call needs no asking when no rule names it (read-only workbench tools). */
  safeByDefault?: (tool: PermissionTool, argument: string) => boolean;
  /** The flag that allows asks, as the face spells it (default `--yes`; `workbench acp`: `--auto-approve`). */
  yesFlag?: string;
  /** Why nobody is asked (default `there is no terminal to ask`; `--no-ui asks no questions`). */
  noAsker?: string;
}

export function createPermit(options: PermitOptions): Permit {
  // `always` answers: allow rules for this session, checked like the file's (a deny there still wins).
  // The argument is the pattern: the glob has no escape, so a `*` in it matches a little more than
  // itself (`ls *.ts` also covers `ls a.ts`), which a rule that dies with the session can afford.
  const session: PermissionRule[] = [];
  return async ({tool, argument, preview}) => {
    const safeByDefault = options.safeByDefault?.(tool, argument) ?? false;
    const decision = decide([...options.rules, ...session], tool, argument, {safeByDefault});
    if (decision.action === 'deny') return {allowed: false, decision};
    if (decision.action === 'allow') return {allowed: true, decision};

    if (options.yes) {
      const yesFlag = options.yesFlag ?? '--yes';
      const rule: PermissionRule = {action: 'allow', tool, pattern: argument, source: yesFlag};
      return {allowed: true, decision: {...decision, action: 'allow', rule, reason: `allowed by ${yesFlag} (${decision.reason})`}};
    }
    if (!options.ask) {
      return {
        allowed: false,
        decision: {
          ...decision,
          action: 'deny',
          reason: `refused: ${decision.reason}, and ${options.noAsker ?? 'there is no terminal to ask'}; allow it with ${options.yesFlag ?? '--yes'} or a rule in .workbench.kdl, e.g. agent { allow ${JSON.stringify(tool)} ${JSON.stringify(argument)} }`,
        },
      };
    }

    const answer = await options.ask({tool, argument, decision, preview});
    if (answer === 'deny') return {allowed: false, decision: answered(decision, 'deny', tool, argument, 'denied by you when asked')};
    if (answer === 'always') {
      const rule: PermissionRule = {action: 'allow', tool, pattern: argument, source: 'session'};
      session.push(rule);
      return {allowed: true, decision: {...decision, action: 'allow', rule, reason: `allowed by you for the rest of this session (${decision.reason})`}};
    }
    return {allowed: true, decision: answered(decision, 'allow', tool, argument, 'allowed by you when asked')};
  };
}

function answered(decision: PermissionDecision, action: 'allow' | 'deny', tool: PermissionTool, argument: string, said: string): PermissionDecision {
  return {...decision, action, rule: {action, tool, pattern: argument, source: 'asked'}, reason: `${said} (${decision.reason})`};
}
