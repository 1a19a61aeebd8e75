import type {MetadataRule, ModelProblem, ResolvedMetadata} from '../types.js';

/**
 * Reads one target's metadata properties as typed values. A value that does not fit is reported
 * as a problem naming the target, the key and the rule that wrote it, and the default is used so
 * the rest of the model still builds (`gql check` shows every problem at once).
 */
export class PropertyReader {
  constructor(
    readonly target: string,
    readonly props: Record<string, string>,
    private readonly resolved: ResolvedMetadata,
    private readonly problems: ModelProblem[],
  ) {}

  has(key: string): boolean {
    return key in this.props;
  }

  text(key: string): string | undefined {
    const value = this.props[key]?.trim();
    return value === undefined || value === '' ? undefined : value;
  }

  /**
   * Reports a problem on this target's `key`, naming the rule that set it. The message quotes the
   * value unless `quoteValue` is false (a reason that quotes the faulty part of a list itself).
   */
  problem(key: string | undefined, reason: string, quoteValue = true): void {
    const rule = key === undefined ? undefined : this.source(key);
    const value = key === undefined ? undefined : this.props[key];
    const message = key === undefined ? `${this.target}: ${reason}` : quoteValue ? `${this.target}: ${key}: ${JSON.stringify(value)}: ${reason}` : `${this.target}: ${reason}`;
    this.problems.push({message, target: this.target, ...(rule ? {rule: rule.text, ruleIndex: rule.index} : {})});
  }

  source(key: string): MetadataRule | undefined {
    return this.resolved.sources?.get(`${this.target}\u0000${key}`);
  }

  /** `true`/`false` (also `enabled`/`disabled`, `yes`/`no`, any case). */
  boolean(key: string, fallback: boolean): boolean {
    const value = this.text(key)?.toLowerCase();
    if (value === undefined) return fallback;
    if (['true', 'enabled', 'yes', 'on'].includes(value)) return true;
    if (['false', 'disabled', 'no', 'off'].includes(value)) return false;
    this.problem(key, 'must be true or false (or enabled/disabled)');
    return fallback;
  }

  /** An integer; `positive` refuses 0 and negatives (the spec's "non-positive fails"). */
  integer(key: string, options: {positive: boolean}): number | undefined {
    const value = this.text(key);
    if (value === undefined) {
      if (this.has(key)) this.problem(key, 'must be a number, not empty');
      return undefined;
    }
    if (!/^[+-]?\d+$/.test(value) || !Number.isSafeInteger(Number(value))) {
      this.problem(key, 'must be a whole number');
      return undefined;
    }
    const number = Number(value);
    if (options.positive && number <= 0) {
      this.problem(key, 'must be a positive number');
      return undefined;
    }
    return number;
  }

  oneOf<T extends string>(key: string, allowed: readonly T[]): T | undefined {
    const value = this.text(key)?.toLowerCase();
    if (value === undefined) return undefined;
    if ((allowed as readonly string[]).includes(value)) return value as T;
    this.problem(key, `must be ${allowed.join(' or ')}`);
    return undefined;
  }

  /** A comma list, items trimmed, empty items dropped. */
  list(key: string): string[] | undefined {
    const value = this.props[key];
    if (value === undefined) return undefined;
    return value
      .split(',')
      .map((item) => item.trim())
      .filter((item) => item !== '');
  }
}
