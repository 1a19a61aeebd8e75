/** Milliseconds from a BIGINT column (node-postgres hands BIGINT over as a string). */
export function millis(value: unknown): number | null {
  if (value === null || value === undefined) return null;
  const number = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(number) ? number : null;
}

export function isoOrNull(value: unknown): string | null {
  const ms = millis(value);
  return ms === null ? null : new Date(ms).toISOString();
}

export function iso(value: unknown): string {
  return new Date(millis(value) ?? 0).toISOString();
}

/** SQLite and MySQL keep booleans as 0/1, PostgreSQL as true/false. */
export function flag(value: unknown): boolean {
  return value === true || value === 1 || value === '1' || value === 't';
}
