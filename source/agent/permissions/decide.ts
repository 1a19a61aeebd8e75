/**
 * What the rules say about one tool call. Users must be able to predict it (the most discussed
 * complaint in Claude Code's and opencode's trackers), so the whole of it fits in a few sentences:
 *
 * - A rule matches when its tool is the call's (or `*`) and its pattern matches the whole argument.
 * - Among matching rules the strictest wins: deny beats ask beats allow, wherever they are in the
 *   file (so adding an allow can never undo a deny). Among rules of the same action, the first in
 *   the file is the one named.
 * - No rule matches: the default. Reads inside the workspace and read-only workbench tools are
 *   allowed; reads outside it, edits, shell commands and workbench tools that change something ask.
 * - A shell command is read as written and without its leading variable assignments
 *   (`FOO=1 rm -rf x` is also `rm -rf x`); rules matching either reading count.
 * - A shell command line is cut into the commands it runs (`a && b | c`); each is decided alone and
 *   the strictest part decides the whole. Command substitution, redirections and subshells ask at
 *   least. An allow rule that spells out such a line itself (its pattern holds the operator, e.g.
 *   `allow "shell" "npm ci && npm test"`, `allow "shell" "npm run build > build.log"`) and matches
 *   the whole line allows it, over the parts' defaults; a deny or an ask rule still wins over it.
 */
import type {PermissionAction, PermissionDecision, PermissionRule, PermissionTool} from '../types.js';
import {globMatches} from './glob.js';
import {splitShellCommand} from './shell-parts.js';

export interface DecideOptions {
  /** The tool needs no asking when no rule names it (read-only workbench tools); reads always are. */
  safeByDefault?: boolean;
}

const STRICTNESS: Record<PermissionAction, number> = {allow: 0, ask: 1, deny: 2};

export function decide(rules: readonly PermissionRule[], tool: PermissionTool, argument: string, options: DecideOptions = {}): PermissionDecision {
  if (tool !== 'shell') return decideOne(rules, tool, argument, options);

  const whole = decideOne(rules, tool, argument, options);
  const split = splitShellCommand(argument);
  const {parts, constructs} = split;
  const decided = parts.map((text, index) => ({text, decision: strongest([decideOne(rules, tool, text, options), decideOne(rules, tool, split.commands[index]!, options)])}));
  if (parts.length === 0) return whole;
  if (parts.length === 1 && constructs.length === 0) {
    // One command: the line as written and as the shell reads it (quotes, spaces, assignments) both count.
    return strongest([whole, decided[0]!.decision]);
  }

  // A deny of the whole line or of any part stops it.
  const denied = whole.action === 'deny' ? whole : decided.find((part) => part.decision.action === 'deny')?.decision;
  if (denied) return {...denied, reason: partReason(denied, decided, argument), parts: decided};

  // An ask rule (not the default) for the whole line or a part is kept: ask beats allow.
  const asked = whole.action === 'ask' && whole.rule ? whole : decided.find((part) => part.decision.action === 'ask' && part.decision.rule)?.decision;
  if (asked) return {...asked, reason: partReason(asked, decided, argument), parts: decided};

  const spelledOut = whole.action === 'allow' ? allowOfWholeLine(rules, argument) : null;
  if (spelledOut) {
    return {action: 'allow', rule: spelledOut, reason: `allowed by ${describeRule(spelledOut)}, which names this whole command line`, parts: decided};
  }
  const strictest = decided.reduce((worst, part) => (STRICTNESS[part.decision.action] > STRICTNESS[worst.decision.action] ? part : worst), decided[0]!);
  if (constructs.length && strictest.decision.action === 'allow') {
    return {
      action: 'ask',
      rule: null,
      reason: `asks: the command line has ${constructs.join(', ')}, which rules for its parts cannot vouch for (an allow rule naming the whole line can)`,
      parts: decided,
    };
  }
  const also = constructs.length ? `; the line also has ${constructs.join(', ')}` : '';
  if (parts.length === 1) return {...strictest.decision, reason: `${strictest.decision.reason}${also}`, parts: decided};
  return {...strictest.decision, reason: `${partReason(strictest.decision, decided, argument)}${also}`, parts: decided};
}

/** The rules for one argument alone. */
export function decideOne(rules: readonly PermissionRule[], tool: PermissionTool, argument: string, options: DecideOptions = {}): PermissionDecision {
  let best: PermissionRule | null = null;
  for (const rule of rules) {
    if (rule.tool !== '*' && rule.tool !== tool) continue;
    if (!globMatches(rule.pattern, argument)) continue;
    if (!best || STRICTNESS[rule.action] > STRICTNESS[best.action]) best = rule;
  }
  if (best) return {action: best.action, rule: best, reason: `${VERB[best.action]} by ${describeRule(best)}`};
  const action = defaultAction(tool, options, argument);
  return {action, rule: null, reason: `${action === 'allow' ? 'allowed' : 'asks'}: no rule matches; ${defaultSentence(tool, action)}`};
}

export function defaultAction(tool: PermissionTool, options: DecideOptions = {}, argument = ''): PermissionAction {
  if (tool === 'read') return outsideWorkspace(argument) ? 'ask' : 'allow';
  if (tool === 'workbench') return options.safeByDefault ? 'allow' : 'ask';
  return 'ask';
}

/** The tools give paths inside the workspace relative to it (tools/paths.ts): absolute or `..` is outside. */
function outsideWorkspace(path: string): boolean {
  return path.startsWith('/') || path === '..' || path.startsWith('../') || path.startsWith('~');
}

/** `.workbench.kdl:4 deny "shell" "rm -rf*"`: where the rule is and how it reads. */
export function describeRule(rule: PermissionRule): string {
  return `${rule.source} ${rule.action} ${JSON.stringify(rule.tool)} ${JSON.stringify(rule.pattern)}`;
}

const VERB: Record<PermissionAction, string> = {allow: 'allowed', ask: 'asks as told', deny: 'denied'};

function defaultSentence(tool: PermissionTool, action: PermissionAction): string {
  if (tool === 'workbench') return action === 'allow' ? 'read-only workbench tools are allowed by default' : 'workbench tools that change something ask by default';
  if (tool === 'read') return action === 'allow' ? 'read is allowed by default' : 'reads outside the workspace ask by default';
  return `${tool} asks by default`;
}

function partReason(decision: PermissionDecision, parts: Array<{text: string; decision: PermissionDecision}>, whole: string): string {
  const part = parts.find((candidate) => candidate.decision === decision);
  if (!part) return `${decision.reason} (the whole command line)`;
  if (part.text === whole.trim()) return decision.reason;
  return `${decision.reason}, for the part ${JSON.stringify(part.text)} of ${parts.length}`;
}

/**
 * Several readings of one command (as written, without its variable assignments): rules matching
 * any of them count, deny beating ask beating allow as for rules on one argument; with no rule for
 * any, the first reading's default.
 */
function strongest(readings: PermissionDecision[]): PermissionDecision {
  const ruled = readings.filter((reading) => reading.rule);
  if (ruled.length === 0) return readings[0]!;
  return ruled.reduce((worst, reading) => (STRICTNESS[reading.action] > STRICTNESS[worst.action] ? reading : worst));
}

// A shell operator or construct in a pattern's literal text: the rule was written for such a line.
const SPELLED_OUT = /&&|\|\||[;|&<>`()]|\$\(/;

function allowOfWholeLine(rules: readonly PermissionRule[], argument: string): PermissionRule | null {
  return (
    rules.find((rule) => rule.action === 'allow' && (rule.tool === 'shell' || rule.tool === '*') && SPELLED_OUT.test(rule.pattern) && globMatches(rule.pattern, argument)) ?? null
  );
}
