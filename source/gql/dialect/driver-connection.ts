/** A pooled driver connection as the deadline needs it: pg's Client (processID) or mysql2's Connection (threadId). */
export interface DriverConnection {
  processID?: number | null;
  threadId?: number | null;
  _isMariaDB?: boolean;
  query(...args: unknown[]): unknown;
}

/** One statement on a mysql2 connection, answered as knex answers `raw` ([rows, fields]). */
export function mysqlQuery(connection: DriverConnection, sql: string, bindings: readonly unknown[]): Promise<[unknown, unknown]> {
  return new Promise((resolve, reject) => {
    connection.query({sql}, bindings, (error: unknown, rows: unknown, fields: unknown) => (error ? reject(error) : resolve([rows, fields])));
  });
}
