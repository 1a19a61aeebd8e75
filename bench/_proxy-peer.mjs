// One side of bench/proxy-throughput.mjs in a process of its own (so the load generator, the target
// and the proxy each have their own event loop, as in real use): `target`, or a proxy in front of
// the target port: `ours`, `http-proxy`, `fastify`. Prints the port it listens on, then serves
// until killed.
// Started with --cpu-prof the proxy writes a profile when killed (SIGTERM exits normally).
import http from 'node:http';

const [kind, targetPort] = process.argv.slice(2);
const target = `http://127.0.0.1:${targetPort}`;
const BODY = JSON.stringify({ok: true, items: [1, 2, 3], name: 'small JSON answer'});

async function listen(server) {
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server.address().port;
}

let port;
if (kind === 'target') {
  port = await listen(
    http.createServer((_req, res) => {
      res.writeHead(200, {'content-type': 'application/json', 'content-length': Buffer.byteLength(BODY)});
      res.end(BODY);
    }),
  );
} else if (kind === 'ours') {
  const {startProxy} = await import(process.env.PROXY_MODULE ?? '../dist/source/devproxy/start-proxy.js');
  const proxy = await startProxy({id: 'bench', target, logSize: Number(process.env.LOG_SIZE ?? 1000)}, {pageScript: 'void 0;'});
  port = proxy.info.port;
  globalThis.benchProxy = proxy;
  // bench/metrics-overhead.mjs: the daemon's per-proxy metrics, switched between rounds by a line
  // on stdin: `metrics off`, `metrics on`, or `metrics timed` (on, with the time spent in the
  // metrics listener summed; `stat` answers it). The registry is read once a second either way, as a dashboard does.
  if (process.env.BENCH_PROXY_METRICS) {
    const {proxyMetrics} = await import('../dist/source/devproxy/metrics.js');
    const {Counter, Registry} = await import('prom-client');
    const registry = new Registry();
    const errors = new Counter({name: 'workbench_errors_total', help: 'errors', labelNames: ['source', 'severity'], registers: [registry]});
    const metrics = proxyMetrics(registry, errors);
    const timed = {spent: 0n, calls: 0};
    const timedProxy = {
      onEntry: (listener) =>
        proxy.onEntry((entry) => {
          const began = process.hrtime.bigint();
          listener(entry);
          timed.spent += process.hrtime.bigint() - began;
          timed.calls++;
        }),
    };
    let stop;
    globalThis.benchMetrics = (mode) => {
      stop?.();
      stop = mode === 'on' ? metrics.watch('bench', proxy) : mode === 'timed' ? metrics.watch('bench', timedProxy) : undefined;
    };
    globalThis.benchTimed = timed;
    setInterval(() => void registry.metrics(), 1000).unref();
  }
} else if (kind === 'http-proxy') {
  const {default: httpProxy} = await import('http-proxy');
  const proxy = httpProxy.createProxyServer({target, agent: new http.Agent({keepAlive: true, maxSockets: 256})});
  proxy.on('error', (_error, _req, res) => res.writeHead?.(502).end());
  port = await listen(http.createServer((req, res) => proxy.web(req, res)));
} else if (kind === 'fastify') {
  const {default: Fastify} = await import('fastify');
  const {default: proxy} = await import('@fastify/http-proxy');
  const app = Fastify({logger: false});
  await app.register(proxy, {upstream: target});
  await app.listen({port: 0, host: '127.0.0.1'});
  port = app.server.address().port;
} else {
  throw new Error(`unknown kind ${kind}`);
}
process.on('SIGTERM', () => process.exit(0));
// Each line on stdin asks for the CPU time this process has used so far (µs), so that the bench can
// tell a proxy's own cost per request apart from what the machine's other load does to it.
// `mem` asks for the resident set size after a full GC (run with --expose-gc) and the entries logged.
process.stdin.on('data', (line) => {
  const text = String(line).trim();
  if (text.startsWith('metrics ')) {
    globalThis.benchMetrics(text.slice('metrics '.length));
    process.stdout.write('ok\n');
    return;
  }
  if (text === 'stat') {
    process.stdout.write(`${globalThis.benchTimed.spent} ${globalThis.benchTimed.calls}\n`);
    return;
  }
  if (text.startsWith('mem')) {
    globalThis.gc?.();
    const entries = globalThis.benchProxy?.log({limit: 1_000_000}).length ?? 0;
    process.stdout.write(`${process.memoryUsage().rss} ${entries}\n`);
    return;
  }
  const {user, system} = process.cpuUsage();
  process.stdout.write(`${user + system}\n`);
});
process.stdout.write(`${port}\n`);
