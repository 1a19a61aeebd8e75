/**
 * The program each reader process runs (`node -e`), as text: the same text runs from the
 * TypeScript source (tests) and from the bundle (dist), which share no worker file path, and the
 * bundler cannot rewrite its `require`. argv: the better-sqlite3 entry the service itself loads,
 * the database file. It opens the file read-only (WAL: beside the service's writer), then answers
 * each message `{sql, bindings}` with `{rows}`, `{write: true}` (a statement that writes: the
 * service runs it on its own connection) or `{error: {name, message, code}}`. It leaves when the
 * service does (the IPC channel closes); a statement past its deadline ends by SIGKILL, since
 * better-sqlite3 cannot interrupt a running statement and a worker thread cannot be terminated
 * inside one.
 */
export const READER_PROCESS_SOURCE = String.raw`
'use strict';
(function main() {
const Database = require(process.argv[1]);
let db;
try {
  db = new Database(process.argv[2], {readonly: true, fileMustExist: true});
} catch (error) {
  process.send({failed: String(error && error.message)}, () => process.exit(1));
  return;
}
// Each statement text is compiled once per process, as PostgreSQL prepares it once per connection.
const MAX_PREPARED = 500;
const prepared = new Map();
function statementOf(sql) {
  let statement = prepared.get(sql);
  if (!statement) {
    if (prepared.size >= MAX_PREPARED) prepared.clear();
    statement = db.prepare(sql);
    prepared.set(sql, statement);
  }
  return statement;
}
process.on('message', (message) => {
  let answer;
  try {
    const statement = statementOf(message.sql);
    if (!statement.readonly) answer = {write: true};
    else answer = {rows: statement.reader ? statement.all(message.bindings) : (statement.run(message.bindings), [])};
  } catch (error) {
    answer = {error: {name: error && error.name, message: String(error && error.message), code: error && error.code}};
  }
  process.send(answer);
});
process.on('disconnect', () => process.exit(0));
process.send({ready: true});
})();
`;
