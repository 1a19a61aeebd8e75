// One ingestor cycle over 1,000 statuses from the Mastodon stand-in on 127.0.0.1 (fixtures/social),
// storage included (a new SQLite store, realtime mode, every status kept): target < 1 s. Then the
// same with llmEnabled against the model stand-in answering at once: the model calls must be at
// most one per 50 statuses. No peer runs this (the issue names the figures alone).
// Build first: npm run build   Run: node bench/ingestors.mjs
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {makePosts, startSocialNetwork} from '../fixtures/social/stand-in.mjs';
import {startModelEndpoint} from '../fixtures/model-endpoint/stand-in.mjs';

const dir = mkdtempSync(join(tmpdir(), 'wb-bench-ingest-'));
process.env.WORKBENCH_HOME = dir;
const {createReaderService, openModelJudge} = await import('../dist/servers/reader/index.js');

const STATUSES = 1000;
const ROUNDS = 7;
const TARGET_MS = 1000;

const network = await startSocialNetwork({
  network: 'mastodon',
  posts: makePosts(STATUSES, {authors: ['alice', 'bob', 'carol', 'dave', 'erin', 'frank', 'grace']}).map((post) => ({...post, tags: ['rust']})),
});
const model = await startModelEndpoint({key: 'sk-bench-key-000'});
model.respond = ({body}) => {
  const count = (JSON.stringify(body).match(/s\d+ \(@/g) ?? []).length;
  return {text: JSON.stringify(Array.from({length: count}, (_, index) => ({id: `s${index + 1}`, relevance: 0.7, why: 'on topic'})))};
};

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const config = {instance: network.url, hashtag: 'rust', maxStatuses: STATUSES};

async function cycles(llm) {
  const times = [];
  let calls = 0;
  let stored = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const store = join(dir, `reader-${llm ? 'llm' : 'plain'}-${round}.sqlite`);
    const judge = {cwd: dir, env: {MESSAGES_API_KEY: 'sk-bench-key-000', MESSAGES_BASE_URL: model.url}, home: dir};
    const service = await createReaderService({
      connection: store,
      ingestors: {keyFile: join(dir, 'reader.key'), openJudge: () => judgeFor(judge)},
    });
    const ingestor = await service.createIngestor({kind: 'kind_1', config, filterThreshold: 0, llmEnabled: llm});
    const before = model.requests.length;
    const started = performance.now();
    const summary = await service.runIngestor(ingestor.id);
    times.push(performance.now() - started);
    calls = model.requests.length - before;
    stored = summary.added;
    if (summary.fetched !== STATUSES) throw new Error(`fetched ${summary.fetched}`);
    await service.close();
  }
  return {times, calls, stored};
}

/** The agent module's judge, pointed at the model stand-in through the project's agent block. */
async function judgeFor(options) {
  const {writeFileSync} = await import('node:fs');
  writeFileSync(join(options.cwd, '.workbench.kdl'), `agent {\n  base-url "${model.url}"\n}\n`);
  return openModelJudge(options);
}

const plain = await cycles(false);
console.log(
  `one cycle, ${STATUSES} statuses, stored (LLM off): median ${median(plain.times).toFixed(0)} ms, worst ${Math.max(...plain.times).toFixed(0)} ms over ${ROUNDS} (${plain.stored} articles) · target < ${TARGET_MS} ms ${Math.max(...plain.times) < TARGET_MS ? 'PASS' : 'FAIL'}`,
);
const judged = await cycles(true);
const bound = Math.ceil(STATUSES / 50);
console.log(
  `one cycle with llmEnabled (instant model): median ${median(judged.times).toFixed(0)} ms · ${judged.calls} model calls for ${STATUSES} statuses (at most ${bound}: one per 50) ${judged.calls <= bound && judged.calls > 0 ? 'PASS' : 'FAIL'}`,
);
await network.close();
await model.close();
rmSync(dir, {recursive: true, force: true});
