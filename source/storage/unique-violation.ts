/** Whether a driver error is a unique-key violation (PostgreSQL 23505, MySQL 1062, SQLite CONSTRAINT_UNIQUE). */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as {code?: unknown})?.code;
  const errno = (error as {errno?: unknown})?.errno;
  return code === '23505' || code === 'ER_DUP_ENTRY' || errno === 1062 || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
