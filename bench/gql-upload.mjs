// File uploads (spec 3, file columns): a 500 MB file sent as a GraphQL multipart request to
// `workbench serve graphql` (the built CLI, in a child process of its own) on SQLite with a disk
// storage, rounds alternating with a plain fs stream copy of the same bytes on the same disk:
//   1. the server's memory: RSS above its idle figure (read from /proc/<pid>/status every 25 ms
//      while the upload runs) must stay under 64 MB — the file is streamed, never held;
//   2. throughput: the upload's MB/s against the same bytes sent over loopback HTTP to a
//      do-nothing node:http server in another process (it only discards them: the transport's own
//      ceiling on this machine), medians over the rounds, at least 0.9×. For scale, each round also
//      times a plain fs stream copy of the same bytes on the same disk.
// Build first: npm run build   Run: node bench/gql-upload.mjs   (BENCH_UPLOAD_MB, BENCH_ROUNDS, BENCH_CPU_PROF)
import {spawn} from 'node:child_process';
import {createReadStream, createWriteStream, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync} from 'node:fs';
import {request} from 'node:http';
import {createRequire} from 'node:module';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {performance} from 'node:perf_hooks';
import {pipeline} from 'node:stream/promises';
import {serveGraphql} from './_serve-graphql.mjs';

const MB = 1024 * 1024;
const SIZE = Number(process.env.BENCH_UPLOAD_MB ?? 500) * MB;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const TARGETS = {rssMb: 64, ratio: 0.9};
const verdict = (ok) => (ok ? 'PASS' : 'FAIL');
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const dir = mkdtempSync(join(tmpdir(), 'wb-bench-upload-'));
const children = [];
process.on('exit', () => {
  for (const child of children) child.kill();
  rmSync(dir, {recursive: true, force: true});
});

/** A file file-type reads as a PNG (signature, IHDR, one IDAT chunk), the rest patterned bytes. */
async function makeSource(path) {
  const out = createWriteStream(path);
  const head = Buffer.from('89504e470d0a1a0a0000000d494844520000000100000001080600000000000000', 'hex');
  const idat = Buffer.alloc(8);
  idat.writeUInt32BE(SIZE - head.length - 12, 0);
  idat.write('IDAT', 4, 'latin1');
  out.write(Buffer.concat([head, idat]));
  const block = Buffer.alloc(MB);
  for (let index = 0; index < block.length; index += 1) block[index] = (index * 31) % 251;
  let left = SIZE - head.length - 8;
  while (left > 0) {
    const piece = block.subarray(0, Math.min(left, block.length));
    left -= piece.length;
    if (!out.write(piece)) await new Promise((resolve) => out.once('drain', resolve));
  }
  await new Promise((resolve, reject) => out.end((error) => (error ? reject(error) : resolve())));
}

async function startServer(store) {
  const database = join(dir, 'documents.sqlite');
  const Sqlite = createRequire(import.meta.url)('better-sqlite3');
  const sqlite = new Sqlite(database);
  sqlite.exec('create table documents (id integer primary key autoincrement, file_key varchar(64), mime varchar(100), original_name varchar(300))');
  sqlite.close();
  const settings = join(dir, 'appsettings.json');
  writeFileSync(
    settings,
    JSON.stringify({
      ConnectionStrings: {gqlservice: `Data Source=${database}`},
      GqlService: {
        Provider: 'sqlite',
        DisableAuth: true,
        Metadata: [`main.documents.file_key { file: disk:${store}; max-size: 1GB; accept: image/*; content-type-column: mime; file-name-column: original_name }`],
      },
    }),
  );
  // BENCH_CPU_PROF=<dir>: the server writes a CPU profile there when it stops.
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  const {base, child} = await serveGraphql({settings, home: join(dir, 'home'), nodeArgs: profile});
  children.push(child);
  const url = `${base}/graphql`;
  return {url, pid: child.pid};
}

/** A node:http server in a child process that reads every body and throws it away. */
async function startSink() {
  const code = "const s=require('node:http').createServer((q,r)=>{q.resume();q.on('end',()=>r.end('{}'))});s.listen(0,'127.0.0.1',()=>console.log(s.address().port))";
  const child = spawn(process.execPath, ['-e', code], {stdio: ['ignore', 'pipe', 'inherit']});
  children.push(child);
  const port = await new Promise((resolve) => child.stdout.once('data', (data) => resolve(Number(String(data).trim()))));
  return `http://127.0.0.1:${port}/`;
}

const rssOf = (pid) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) * 1024;

/** One multipart upload streamed from `path`: operations, map, the file part. */
function upload(url, path, size) {
  const boundary = `wbbench${Date.now()}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="operations"\r\n\r\n` +
      JSON.stringify({query: 'mutation($f: Upload!) { documents(insert: {file_key: $f}) }', variables: {f: null}}) +
      `\r\n--${boundary}\r\nContent-Disposition: form-data; name="map"\r\n\r\n{"0":["variables.f"]}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="0"; filename="big.png"\r\nContent-Type: image/png\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: 'POST',
        headers: {'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(head.length + size + tail.length), accept: 'application/json'},
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (body += chunk));
        res.on('end', () => (res.statusCode === 200 && !body.includes('"errors"') ? resolve(body) : reject(new Error(`upload answered ${res.statusCode}: ${body}`))));
      },
    );
    req.on('error', reject);
    req.write(head);
    const file = createReadStream(path, {highWaterMark: 256 * 1024});
    file.pipe(req, {end: false});
    file.on('error', reject);
    file.on('end', () => req.end(tail));
  });
}

console.log(`# GraphQL file upload: ${SIZE / MB} MB, ${ROUNDS} rounds, SQLite, disk storage`);
const source = join(dir, 'source.png');
await makeSource(source);
const store = join(dir, 'store');
const server = await startServer(store);
// Warm: modules loaded, pools open, the JIT through the upload path once.
await upload(server.url, source, statSync(source).size);
rmSync(store, {recursive: true, force: true});
await sleep(500);
const idle = rssOf(server.pid);

const sink = await startSink();
const uploads = [];
const copies = [];
const sinks = [];
let peak = 0;
for (let round = 0; round < ROUNDS; round++) {
  const copyTarget = join(dir, 'copy.png');
  let started = performance.now();
  await pipeline(createReadStream(source, {highWaterMark: 256 * 1024}), createWriteStream(copyTarget));
  copies.push(SIZE / MB / ((performance.now() - started) / 1000));
  rmSync(copyTarget, {force: true});

  started = performance.now();
  await upload(sink, source, SIZE);
  sinks.push(SIZE / MB / ((performance.now() - started) / 1000));

  const sampler = setInterval(() => (peak = Math.max(peak, rssOf(server.pid))), 25);
  started = performance.now();
  await upload(server.url, source, SIZE);
  uploads.push(SIZE / MB / ((performance.now() - started) / 1000));
  clearInterval(sampler);
  rmSync(store, {recursive: true, force: true});
  console.log(
    `round ${round + 1}: fs copy ${copies.at(-1).toFixed(0)} MB/s, loopback HTTP to a discarding server ${sinks.at(-1).toFixed(0)} MB/s, upload ${uploads.at(-1).toFixed(0)} MB/s, server RSS peak ${((peak - idle) / MB).toFixed(1)} MB above idle`,
  );
}

const above = (peak - idle) / MB;
const ratio = median(uploads) / median(sinks);
console.log(
  `server RSS: idle ${(idle / MB).toFixed(1)} MB, peak while uploading ${(peak / MB).toFixed(1)} MB, ${above.toFixed(1)} MB above idle (target < ${TARGETS.rssMb} MB) ${verdict(above < TARGETS.rssMb)}`,
);
console.log(
  `throughput: upload ${median(uploads).toFixed(0)} MB/s, bare loopback HTTP upload to a do-nothing node server ${median(sinks).toFixed(0)} MB/s, ratio ${ratio.toFixed(2)}× (target ≥ ${TARGETS.ratio}×) ${verdict(ratio >= TARGETS.ratio)}`,
);
console.log(`for scale: fs stream copy ${median(copies).toFixed(0)} MB/s; the upload reaches ${(median(uploads) / median(copies)).toFixed(2)}× of it`);
process.exit(above < TARGETS.rssMb && ratio >= TARGETS.ratio ? 0 : 1);
