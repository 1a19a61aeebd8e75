import type {z} from 'zod';

/**
 * One zod issue as a sentence a person or an agent can act on. `style` names the field as the
 * face spells it: `--process-id` on the command line, `process_id` in a tool call.
 */
export function describeIssue(error: z.ZodError, style: 'cli' | 'tool' = 'tool'): string {
  const issue = error.issues[0];
  if (!issue) return 'The arguments are not valid.';
  const key = issue.path.length ? String(issue.path[0]) : '';
  const name = style === 'cli' ? `--${key.replace(/_/g, '-')}` : key;
  const subject = key ? name : 'The arguments';
  switch (issue.code) {
    case 'unrecognized_keys': {
      const keys = issue.keys.map((unknown) => (style === 'cli' ? `--${unknown.replace(/_/g, '-')}` : unknown));
      return `Unknown ${keys.length > 1 ? 'arguments' : 'argument'} ${keys.join(', ')}${key ? ` in ${name}` : ''}.`;
    }
    case 'invalid_type':
      if (issue.input === undefined) return `${subject} is required.`;
      return `${subject} must be ${article(issue.expected)}, not ${describeValue(issue.input)}.`;
    case 'too_small':
      if (issue.origin === 'string') return `${subject} must not be empty.`;
      if (issue.origin === 'array') return `${subject} needs at least ${issue.minimum} ${Number(issue.minimum) === 1 ? 'item' : 'items'}.`;
      return `${subject} must be ${issue.minimum} or more, not ${describeValue(issue.input)}.`;
    case 'too_big':
      if (issue.origin === 'string') return `${subject} must be at most ${issue.maximum} characters long.`;
      if (issue.origin === 'array') return `${subject} takes at most ${issue.maximum} items.`;
      return `${subject} must be ${issue.maximum} or less, not ${describeValue(issue.input)}.`;
    case 'invalid_value':
      return `${subject} must be one of ${issue.values.map((value) => JSON.stringify(value)).join(', ')}, not ${describeValue(issue.input)}.`;
    default:
      return `${subject}: ${issue.message}.`;
  }
}

function article(expected: string): string {
  if (expected === 'int') return 'a whole number';
  return /^[aeiou]/.test(expected) ? `an ${expected}` : `a ${expected}`;
}

function describeValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return String(value);
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'an object' : typeof value;
}
