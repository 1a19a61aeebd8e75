// PostGraphile 4 in a process of its own for bench/graphql.mjs: node bench/_graphql-peer.mjs <postgres url>
// It runs from bench/peers/postgraphile (its own graphql 15: one instance, as PostGraphile needs),
// with the options its documentation gives for production, prints {"url","pid"} on its first
// line, then answers on stdin: `cpu` → its CPU time in µs; `debug` → the SQL statements of the
// next requests are counted (at the pool's clients, what reaches the database); `count` → how many.
import http from 'node:http';
import {createRequire} from 'node:module';
import {fileURLToPath} from 'node:url';

const require = createRequire(fileURLToPath(new URL('./peers/postgraphile/package.json', import.meta.url)));
const {Pool} = require('pg');
const {postgraphile} = require('postgraphile');

// PostGraphile's own pool would be the same (pg's default of 10 clients); ours counts each query a
// client sends while asked to, at the cost of one boolean test per statement otherwise.
let counting = false;
let statements = 0;
const pool = new Pool({connectionString: process.argv[2], max: 10});
pool.on('connect', (client) => {
  const query = client.query;
  client.query = function (...args) {
    if (counting) statements++;
    return query.apply(this, args);
  };
});

const middleware = postgraphile(pool, 'public', {
  disableQueryLog: true,
  graphiql: false,
  watchPg: false,
  retryOnInitFail: false,
  ignoreRBAC: false,
  setofFunctionsContainNulls: false,
  legacyRelations: 'omit',
});
const server = http.createServer(middleware);
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({url: `http://127.0.0.1:${server.address().port}/graphql`, pid: process.pid})}\n`);
});

process.stdin.setEncoding('utf8').on('data', (chunk) => {
  for (const command of chunk.split('\n').filter(Boolean)) {
    if (command === 'cpu') {
      const {user, system} = process.cpuUsage();
      process.stdout.write(`${user + system}\n`);
    } else if (command === 'debug') {
      statements = 0;
      counting = true;
      process.stdout.write('ok\n');
    } else if (command === 'count') {
      counting = false;
      process.stdout.write(`${statements}\n`);
    }
  }
});
process.stdin.on('end', () => process.exit(0));
