/**
 * The targets a person would type after `make`: explicit rule targets only. Skipped: special
 * targets (`.PHONY`, anything starting with `.`), pattern rules (`%.o: %.c`), variable
 * assignments (`CC := gcc`, target-specific `build: CFLAGS += -O2`), targets built from
 * variables (`$(BIN):`), recipe lines and the bodies of `define` blocks.
 */
const ASSIGNMENT = /^\s*(?:export\s+|override\s+)?[A-Za-z_][A-Za-z0-9_.-]*\s*(?:::=|:::=|:=|\+=|\?=|!=|=)/;
// `targets : prerequisites` or `targets :: prerequisites`, at column 0.
const RULE = /^([^\s:=#][^:=#]*?)\s*::?(?!=)(.*)$/;
// After the colon, `VAR = value` makes it a target-specific variable, not a rule.
const TARGET_VARIABLE = /^\s*(?:export\s+|override\s+)?[A-Za-z_][A-Za-z0-9_.-]*\s*(?:::=|:=|\+=|\?=|!=|=)/;
const DIRECTIVE = /^\s*(?:include|-include|sinclude|ifeq|ifneq|ifdef|ifndef|else|endif|vpath|export|unexport|override|undefine)\b/;

export function makeTargets(makefile: string): string[] {
  const targets: string[] = [];
  const seen = new Set<string>();
  let inDefine = false;
  let continued = false;

  for (const raw of makefile.split(/\r?\n/)) {
    const wasContinued = continued;
    continued = /(^|[^\\])(\\\\)*\\$/.test(raw);
    if (wasContinued) continue;
    if (inDefine) {
      if (/^\s*endef\b/.test(raw)) inDefine = false;
      continue;
    }
    if (/^\s*(?:export\s+|override\s+)?define\b/.test(raw)) {
      inDefine = true;
      continue;
    }
    if (raw.startsWith('\t') || raw.trim() === '' || raw.trimStart().startsWith('#')) continue;
    if (ASSIGNMENT.test(raw) || DIRECTIVE.test(raw)) continue;

    const rule = RULE.exec(raw.replace(/\s+#.*$/, ''));
    if (!rule) continue;
    if (TARGET_VARIABLE.test(rule[2]!)) continue;
    for (const target of rule[1]!.trim().split(/\s+/)) {
      if (target.startsWith('.') || target.includes('%') || target.includes('$') || seen.has(target)) continue;
      seen.add(target);
      targets.push(target);
    }
  }
  return targets;
}
