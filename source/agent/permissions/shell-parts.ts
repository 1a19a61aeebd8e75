/**
 * A shell command line cut into the commands it runs, so each is judged alone: `npm test && rm -rf /`
 * is two commands, and an `allow "shell" "npm test*"` rule must not carry the second. shell-quote's
 * parser does the cutting (quotes, escapes, operators); what it cannot see through is reported as a
 * construct that needs asking: command substitution runs a command hidden inside a word, a
 * redirection writes or reads files the command line does not name as commands, a subshell nests a
 * command list, `bash -c '…'` and `eval` run a command line held in a word.
 */
import {parse, type ParseEntry} from 'shell-quote';

export interface ShellParts {
  /** Each command in order, as words joined by spaces (quoted where a word needs it). */
  parts: string[];
  /**
   * The same commands without their leading variable assignments (`FOO=1 rm -rf x` is `rm -rf x`),
   * so a rule about the command still sees it; the same text when there are none.
   */
  commands: string[];
  /** Why the line needs asking however its parts are ruled: `command substitution $(...)`, `redirection >`. */
  constructs: string[];
}

// `NAME=value` before a command: sets its environment, is not the command.
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

// Programs that run a command line given as a word: what they run is out of the rules' sight.
const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'fish']);

// Operators that separate commands; the rest (redirections, parentheses) are constructs.
const SEPARATORS = new Set(['&&', '||', ';', ';;', '|', '|&', '&']);

export function splitShellCommand(command: string): ShellParts {
  const constructs = new Set<string>();
  // Substitutions run inside words, and shell-quote leaves them in the word (quoted or not): look at the text.
  if (command.includes('$(')) constructs.add('command substitution $(...)');
  if (command.includes('`')) constructs.add('command substitution `...`');
  if (/[<>]\(/.test(command)) constructs.add('process substitution <(...)');

  let entries: ParseEntry[];
  try {
    // Variables stay as written ($HOME), not expanded to the empty string.
    entries = parse(command, (name) => `$${name}`);
  } catch {
    return {parts: [command.trim()], commands: [command.trim()], constructs: [...constructs, 'a command line the parser cannot read']};
  }

  const parts: string[] = [];
  const commands: string[] = [];
  let words: string[] = [];
  let raw: string[] = [];
  const flush = () => {
    if (words.length) {
      parts.push(words.join(' '));
      const first = raw.findIndex((word) => !ASSIGNMENT.test(word));
      commands.push(first <= 0 ? words.join(' ') : words.slice(first).join(' '));
      const program = raw[Math.max(first, 0)] ?? '';
      if (program === 'eval' || (SHELLS.has(program.replace(/^.*\//, '')) && raw.includes('-c')))
        constructs.add(`a nested command line (${program.replace(/^.*\//, '')}${program === 'eval' ? '' : ' -c'})`);
    }
    words = [];
    raw = [];
  };
  for (const entry of entries) {
    if (typeof entry === 'string') {
      words.push(showWord(entry));
      raw.push(entry);
    } else if ('comment' in entry)
      continue; // not run
    else if ('pattern' in entry && entry.op === 'glob') {
      words.push(entry.pattern);
      raw.push(entry.pattern);
    } else if ('op' in entry && SEPARATORS.has(entry.op)) flush();
    else if ('op' in entry) {
      const op = entry.op as string;
      if (op === '(' || op === ')' || op === '<(' || op === '>(') {
        // `$(` arrives as a word `$` then `(`: the word is the substitution's, not the command's.
        const substitution = op === '(' && words.at(-1) === '$';
        if (substitution) {
          words.pop();
          raw.pop();
        } else if (op === '(') constructs.add('subshell ( ... )');
        // The inner command becomes a part of its own, judged like the others.
        flush();
      } else {
        constructs.add(`redirection ${op}`);
        words.push(op);
        raw.push(op);
      }
    }
  }
  flush();
  return {parts, commands, constructs: [...constructs]};
}

/** A word as a rule sees it: bare when it is plain, in single quotes when it holds spaces or shell characters. */
function showWord(word: string): string {
  if (word !== '' && /^[\w@%+=:,./*?$~^-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}
