/** Which face an answer is for: the command line (`cli`) or a tool call (MCP, the agent: `tool`). */
export type Face = 'cli' | 'tool';

/**
 * How a face spells a tool's arguments in a hint, so it can be followed as written: `--limit 74`
 * on the command line, `{"limit": 74}` in a tool call. `flags` names the CLI flags that are not
 * the argument's name in kebab case (proxylog's `status_codes` is `--status`); `command` puts the
 * CLI command in front (`workbench get-incidents --id <id>`).
 */
export function spellArgs(face: Face, args: Record<string, unknown>, options: {command?: string; flags?: Record<string, string>} = {}): string {
  const entries = Object.entries(args);
  if (face === 'tool') return `{${entries.map(([key, value]) => `${JSON.stringify(key)}: ${JSON.stringify(value)}`).join(', ')}}`;
  const words = entries.map(([key, value]) => (value === true ? spellField(face, key, options.flags) : `${spellField(face, key, options.flags)} ${String(value)}`));
  return [...(options.command ? [`workbench ${options.command}`] : []), ...words].join(' ');
}

/** One argument's name as a face spells it: `process_id` in a tool call, `--process-id` on the command line. */
export function spellField(face: Face, key: string, flags: Record<string, string> = {}): string {
  if (face === 'tool') return key;
  return flags[key] ?? `--${key.replace(/_/g, '-')}`;
}

/** `a, b or c`: fields as a face spells them, for `narrow with …`. */
export function spellFields(face: Face, keys: string[], flags: Record<string, string> = {}): string {
  const names = keys.map((key) => spellField(face, key, flags));
  return names.length > 1 ? `${names.slice(0, -1).join(', ')} or ${names.at(-1)}` : (names[0] ?? '');
}
