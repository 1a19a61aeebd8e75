// Agent figures of issue 11, against a local model-endpoint stand-in that answers at once
// (fixtures/model-endpoint): (1) the loop's overhead per turn — the time between one model
// answer's end and the next request, for `workbench agent` running a tool each turn, against the
// same requests made back to back with the bare SDK (the peer: a model call with no loop around
// it); target under 20 ms per turn. (2) First streamed token: from the stand-in writing a text
// piece to that text appearing on the CLI's stdout; target under 50 ms.
import {spawn} from 'node:child_process';
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import Anthropic from '@anthropic-ai/sdk';
import {startModelEndpoint} from '../fixtures/model-endpoint/stand-in.mjs';

const cli = fileURLToPath(new URL('../dist/source/cli.js', import.meta.url));
const KEY = 'sk-bench';
const TURNS = 30;
const RUNS = 5;
const dir = mkdtempSync(join(tmpdir(), 'wb-bench-agent-'));
const project = join(dir, 'project');
const env = {...process.env, WORKBENCH_HOME: join(dir, 'home'), XDG_CONFIG_HOME: join(dir, 'config'), HOME: dir, MESSAGES_API_KEY: KEY};
for (const name of ['ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN', 'MESSAGES_AUTH_TOKEN']) delete env[name];

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const gaps = (requests) => requests.slice(1).map((request, index) => request.at - requests[index].at);

function runCli(args, onStdout) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args], {cwd: project, env, stdio: ['ignore', 'pipe', 'pipe']});
    let stderr = '';
    child.stdout.on('data', (chunk) => onStdout?.(chunk.toString('utf8'), performance.now()));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`agent exited ${code}: ${stderr}`))));
  });
}

await import('node:fs').then(({mkdirSync}) => mkdirSync(project));
writeFileSync(join(project, 'notes.txt'), 'a small file the agent reads every turn\n'.repeat(20));
const model = await startModelEndpoint({key: KEY});
try {
  // (1) loop overhead per turn
  const ours = [];
  const bare = [];
  for (let run = 0; run < RUNS; run++) {
    let turn = 0;
    model.requests.length = 0;
    model.respond = () => (++turn < TURNS ? {toolCalls: [{name: 'read_file', input: {path: 'notes.txt'}}]} : {text: 'done'});
    await runCli(['agent', 'read notes.txt again and again', '--base-url', model.url, '--json', '--max-turns', String(TURNS + 1)]);
    ours.push(median(gaps(model.requests)));

    // The peer: the same number of streamed requests with the SDK alone, each sending the conversation so far.
    model.requests.length = 0;
    model.respond = () => ({toolCalls: [{name: 'read_file', input: {path: 'notes.txt'}}]});
    const client = new Anthropic({apiKey: KEY, baseURL: model.url, maxRetries: 0});
    const messages = [{role: 'user', content: 'read notes.txt again and again'}];
    for (let i = 0; i < TURNS; i++) {
      const stream = await client.messages.create({model: 'm', max_tokens: 100, messages, stream: true});
      for await (const event of stream) void event;
      messages.push({role: 'assistant', content: [{type: 'tool_use', id: `t${i}`, name: 'read_file', input: {path: 'notes.txt'}}]});
      messages.push({role: 'user', content: [{type: 'tool_result', tool_use_id: `t${i}`, content: 'x'.repeat(800)}]});
    }
    bare.push(median(gaps(model.requests)));
  }
  const loop = median(ours);
  const peer = median(bare);
  console.log(
    `loop per turn: ${loop.toFixed(1)} ms (bare SDK request to request: ${peer.toFixed(1)} ms; overhead ${(loop - peer).toFixed(1)} ms, target < 20 ms; ${(loop / peer).toFixed(2)}× the bare SDK)`,
  );

  // (2) first streamed token on the CLI's stdout
  const firsts = [];
  for (let run = 0; run < RUNS; run++) {
    const marker = `FIRST${run}`;
    model.pieceWrittenAt.length = 0;
    model.respond = () => ({text: [`${marker} `, 'second ', 'third'], pieceDelayMs: 150});
    let seenAt;
    let seen = '';
    await runCli(['agent', 'say something', '--base-url', model.url], (text, at) => {
      seen += text;
      if (seenAt === undefined && seen.includes(marker)) seenAt = at;
    });
    firsts.push(seenAt - model.pieceWrittenAt[0]);
  }
  console.log(
    `first streamed token on stdout: ${median(firsts).toFixed(1)} ms after the endpoint wrote it (median of ${RUNS}; worst ${Math.max(...firsts).toFixed(1)} ms; target < 50 ms)`,
  );
} finally {
  await model.close();
  rmSync(dir, {recursive: true, force: true});
}
