import {describeError} from '../core/errors.js';

/**
 * The driver's own words of a database error. knex puts the statement before them ("select … -
 * database disk image is malformed"), and a catalog statement runs over many lines: the words are
 * what follows the statement's last " - ". Cut at 300 characters.
 */
export function driverWords(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  const words =
    /^\s*(select|insert|update|delete|with|begin|commit|rollback|call|exec|pragma|create|drop|alter)\b[\s\S]* - (?<reason>[^\n]+)\s*$/i.exec(text)?.groups?.reason ??
    describeError(error);
  return words.length > 300 ? `${words.slice(0, 297)}…` : words;
}
