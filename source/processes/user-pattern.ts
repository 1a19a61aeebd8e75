import {RE2JS, RE2JSException} from 're2js';
import {WorkbenchError} from '../core/errors.js';

/** What a line filter needs of a pattern; a RegExp has it too. */
export interface LineMatcher {
  test(line: string): boolean;
}

/**
 * A pattern a user typed (`proc output --grep`, the MCP `proc` tool's grep), compiled for RE2's
 * linear-time engine: no pattern can make the daemon backtrack for hours (`(a+)+$`). RE2 has no
 * lookaround and no backreferences; such a pattern is refused with what RE2 could not read.
 */
export function compileUserPattern(pattern: string, what = '--grep pattern'): LineMatcher {
  try {
    const compiled = RE2JS.compile(pattern, RE2JS.CASE_INSENSITIVE);
    return {test: (line) => compiled.test(line)};
  } catch (error) {
    if (!(error instanceof RE2JSException)) throw error;
    const reason = error.message.replace(/^error parsing regexp: /, '');
    const hint = /unsupported|invalid escape|invalid named capture/.test(reason) ? ' (patterns run on RE2: no lookahead, lookbehind or backreferences)' : '';
    throw new WorkbenchError('invalid_argument', `invalid ${what}: ${reason}${hint}`);
  }
}
