// Feed parsing on the shared corpus (feedparser's test feeds and Miniflux's large and odd-charset
// ones): throughput and throwing files for ours, feedsmith and rss-parser, on the whole corpus
// and on feedparser's well-formed part (issue 3's figures: ≥ 1.0× feedsmith, ≥ 2× rss-parser,
// fewer throwing files than either). Every parser gets the file's bytes: ours decodes them by
// charset, the others get them as UTF-8 text (their usual use). Run: node bench/feed-parse.mjs
import {execFileSync} from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import {fileURLToPath} from 'node:url';

const repo = fileURLToPath(new URL('..', import.meta.url));
const corpus = fileURLToPath(new URL('../fixtures/feeds', import.meta.url));
const ROUNDS = 7;
const TARGET_VS_FEEDSMITH = 1.0;
const TARGET_VS_RSS_PARSER = 2.0;
// Issue 28's bar for the whole corpus, after the edge cases and enclosures: no regression below these.
const CORPUS_TARGETS = {feedsmith: 30, 'rss-parser': 4};

if (!fs.existsSync(corpus)) {
  console.log(`\n!!! bench/feed-parse: no feed corpus at ${corpus} — nothing measured !!!\n`);
  process.exit(0);
}
const ours = path.join(repo, 'dist/source/feeds/parser/index.js');
if (!fs.existsSync(ours)) {
  console.error('bench/feed-parse: building dist/ first (node scripts/build.mjs)');
  execFileSync(process.execPath, [path.join(repo, 'scripts/build.mjs')], {cwd: repo, stdio: 'inherit'});
}
const {parseFeed} = await import(ours);
const {parseFeed: feedsmithParse} = await import('feedsmith');
const {default: RssParser} = await import('rss-parser');
const rssParser = new RssParser();

function walk(dir) {
  return fs.readdirSync(dir, {withFileTypes: true}).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return walk(file);
    return /\.(xml|json|rss|atom)$/i.test(entry.name) ? [file] : [];
  });
}

// Read everything first: the timed loops touch no disk.
const all = walk(corpus)
  .sort()
  .map((file) => ({file: path.relative(corpus, file), bytes: fs.readFileSync(file)}));
const sets = {corpus: all, wellformed: all.filter(({file}) => file.startsWith(`feedparser${path.sep}wellformed${path.sep}`))};

const parsers = {
  workbench: (bytes) => parseFeed(bytes),
  feedsmith: (bytes) => feedsmithParse(bytes.toString('utf8')),
  'rss-parser': (bytes) => rssParser.parseString(bytes.toString('utf8')),
};

async function throwing(parse, files) {
  let count = 0;
  for (const {bytes} of files) {
    try {
      await parse(bytes);
    } catch {
      count++;
    }
  }
  return count;
}

// Rounds go round-robin over the parsers, so load from other work on the machine hits all alike;
// each parser's best round counts (the one least disturbed by that load and by collections).
async function throughputs(files) {
  const size = files.reduce((sum, {bytes}) => sum + bytes.length, 0);
  const rates = Object.fromEntries(Object.keys(parsers).map((name) => [name, []]));
  for (const parse of Object.values(parsers)) await throwing(parse, files); // warm-up
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, parse] of Object.entries(parsers)) {
      const start = process.hrtime.bigint();
      await throwing(parse, files);
      rates[name].push(size / 1e6 / (Number(process.hrtime.bigint() - start) / 1e9));
    }
  }
  return Object.fromEntries(Object.entries(rates).map(([name, list]) => [name, Math.max(...list)]));
}

const results = Object.fromEntries(Object.keys(parsers).map((name) => [name, {}]));
for (const [setName, files] of Object.entries(sets)) {
  const rates = await throughputs(files);
  for (const [name, parse] of Object.entries(parsers)) results[name][setName] = {mbps: rates[name], throws: await throwing(parse, files)};
}

const mb = (files) => (files.reduce((sum, {bytes}) => sum + bytes.length, 0) / 1e6).toFixed(2);
console.log(
  `feed-parse: corpus ${sets.corpus.length} files, ${mb(sets.corpus)} MB; wellformed ${sets.wellformed.length} files, ${mb(sets.wellformed)} MB; best of ${ROUNDS} rounds`,
);
console.log(`${'parser'.padEnd(12)} ${'corpus MB/s'.padStart(12)} ${'throws'.padStart(7)} ${'wellformed MB/s'.padStart(16)} ${'throws'.padStart(7)}`);
for (const [name, result] of Object.entries(results)) {
  const {corpus: c, wellformed: w} = result;
  console.log(`${name.padEnd(12)} ${c.mbps.toFixed(2).padStart(12)} ${String(c.throws).padStart(7)} ${w.mbps.toFixed(2).padStart(16)} ${String(w.throws).padStart(7)}`);
}

const verdict = (ok) => (ok ? 'PASS' : 'FAIL');
const ours_ = results.workbench;
for (const [peer, target] of [
  ['feedsmith', TARGET_VS_FEEDSMITH],
  ['rss-parser', TARGET_VS_RSS_PARSER],
]) {
  for (const setName of Object.keys(sets)) {
    const ratio = ours_[setName].mbps / results[peer][setName].mbps;
    console.log(`${setName.padEnd(10)} vs ${peer.padEnd(10)} ${ratio.toFixed(2)}× (target ≥ ${target.toFixed(1)}×) ${verdict(ratio >= target)}`);
  }
}
const fewer = ours_.wellformed.throws < results.feedsmith.wellformed.throws && ours_.wellformed.throws < results['rss-parser'].wellformed.throws;
console.log(
  `wellformed throwing files: ${ours_.wellformed.throws} vs feedsmith ${results.feedsmith.wellformed.throws}, rss-parser ${results['rss-parser'].wellformed.throws} (target: fewer than both) ${verdict(fewer)}`,
);
for (const [peer, target] of Object.entries(CORPUS_TARGETS)) {
  const ratio = ours_.corpus.mbps / results[peer].corpus.mbps;
  console.log(`corpus     vs ${peer.padEnd(10)} ${ratio.toFixed(2)}× (issue 28: ≥ ${target}×) ${verdict(ratio >= target)}`);
}
