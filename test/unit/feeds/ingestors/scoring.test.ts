import {mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {startModelEndpoint, type ModelEndpoint} from '../../../../fixtures/model-endpoint/stand-in.js';
import {openModelJudge, parseScoringRules, scoreStatuses, DEFAULT_RULES} from '../../../../source/feeds/ingestors/scoring/index.js';
import type {ScoringContext, SocialStatus} from '../../../../source/feeds/ingestors/types.js';

const NOW = new Date('2026-11-24T12:00:00Z');

function status(key: string, extra: Partial<SocialStatus> = {}): SocialStatus {
  return {
    key,
    url: `https://social.example/${key}`,
    author: {handle: 'alice', name: 'Alice', url: null},
    title: null,
    text: `post ${key} about nothing in particular today`,
    html: null,
    createdAt: NOW.toISOString(),
    editedAt: null,
    engagement: {likes: 4, reposts: 0, replies: 0},
    repostedBy: null,
    replyTo: null,
    replyToSelf: false,
    threadKey: key,
    links: [],
    tags: [],
    deleted: false,
    ...extra,
  };
}

function context(extra: Partial<ScoringContext> = {}): ScoringContext {
  return {rules: DEFAULT_RULES, threshold: 0.25, now: NOW, authorUsual: new Map(), seenLinks: new Set(), seenFingerprints: new Set(), judgements: new Map(), ...extra};
}

const effect = (scored: ReturnType<typeof scoreStatuses>[number], signal: string) => scored.reasons.find((reason) => reason.signal === signal);

describe('scoring you can explain', () => {
  it('engagement counts against the author’s usual, and says so', () => {
    const [hot, usual] = scoreStatuses([status('a', {engagement: {likes: 30, reposts: 2, replies: 3}}), status('b')], context({authorUsual: new Map([['alice', 4]])}));
    expect(effect(hot!, 'engagement')!.detail).toBe("engagement 7.6× this author's usual (37 vs 4)");
    expect(effect(hot!, 'engagement')!.effect).toBe(1.5);
    expect(effect(usual!, 'engagement')!.effect).toBe(0);
    expect(hot!.score).toBeGreaterThan(usual!.score);
  });

  it('the user’s keywords and authors weigh in, whole words only', () => {
    const rules = parseScoringRules({keywords: {rust: 2, 'crypto giveaway': -5}, authors: {'@Bob': 1}});
    const [liked, hidden, partial, bob] = scoreStatuses(
      [
        status('a', {text: 'The Rust 2.0 release is out'}),
        status('b', {text: 'Huge CRYPTO   giveaway now'}),
        status('c', {text: 'trusty old tools'}),
        status('d', {author: {handle: 'bob', name: null, url: null}}),
      ],
      context({rules}),
    );
    expect(effect(liked!, 'keyword')).toEqual({signal: 'keyword', effect: 2, detail: 'keyword "rust" (+2)'});
    expect(hidden!.kept).toBe(false);
    expect(effect(hidden!, 'keyword')!.detail).toBe('keyword "crypto giveaway" (−5)');
    expect(effect(partial!, 'keyword')).toBeUndefined();
    expect(effect(bob!, 'author')!.detail).toBe('author @bob (+1)');
  });

  it('boosts and replies to others count less; a reply in the author’s own thread does not', () => {
    const [boost, reply, thread] = scoreStatuses([status('a', {repostedBy: 'zed'}), status('b', {replyTo: 'x'}), status('c', {replyTo: 'a', replyToSelf: true})], context());
    expect(effect(boost!, 'boost')!.detail).toBe('a boost by @zed (−0.5)');
    expect(effect(reply!, 'reply')!.effect).toBe(-1);
    expect(effect(thread!, 'reply')).toBeUndefined();
  });

  it('a duplicate link or text is dropped, the first copy kept; copies kept before count too', () => {
    const link = 'https://example.org/story?utm_source=x';
    const [first, second, third] = scoreStatuses(
      [status('a', {links: [link]}), status('b', {links: ['https://www.EXAMPLE.org/story/']}), status('c', {links: ['https://example.org/seen']})],
      context({seenLinks: new Set(['https://example.org/seen'])}),
    );
    expect(first!.kept).toBe(true);
    expect(second!.kept).toBe(false);
    expect(effect(second!, 'duplicate')!.detail).toMatch(/same link/);
    expect(third!.kept).toBe(false);
    const [x, y] = scoreStatuses(
      [status('x', {text: 'Exactly the same words in this longer post!'}), status('y', {text: 'exactly the same words, in this longer post'})],
      context(),
    );
    expect(x!.kept).toBe(true);
    expect(effect(y!, 'duplicate')!.detail).toMatch(/same text/);
  });

  it('age halves the lead every half-life', () => {
    const [old] = scoreStatuses([status('a', {createdAt: new Date(NOW.getTime() - 24 * 3_600_000).toISOString()})], context());
    expect(effect(old!, 'age')!.effect).toBeCloseTo(-Math.LN2);
    expect(effect(old!, 'age')!.detail).toBe('24 hours old (half-life 24 h)');
  });

  it('the model’s relevance moves the score and is quoted', () => {
    const [judged] = scoreStatuses([status('a')], context({judgements: new Map([['a', {relevance: 1, why: 'a Rust release'}]])}));
    expect(effect(judged!, 'llm')).toEqual({signal: 'llm', effect: 1.5, detail: 'the model: "a Rust release" (relevance 1.00)'});
  });

  it('keeps a status at exactly the threshold, drops one below', () => {
    const [plain] = scoreStatuses([status('a')], context({threshold: 0.5}));
    expect(plain!.score).toBe(0.5);
    expect(plain!.kept).toBe(true);
    expect(scoreStatuses([status('a')], context({threshold: 0.51}))[0]!.kept).toBe(false);
  });
});

describe('config.scoring', () => {
  it.each([
    [{keywords: {rust: 'lots'}}, /config\.scoring\.keywords\.rust must be a number/],
    [{keywords: {rust: 11}}, /config\.scoring\.keywords\.rust must be a number/],
    [{halfLifeHours: 0}, /config\.scoring\.halfLifeHours/],
    [{colour: 'red'}, /config\.scoring has no field colour/],
    [{keywords: Object.fromEntries(Array.from({length: 201}, (_, index) => [`w${index}`, 1]))}, /at most 200/],
    ['loud', /config\.scoring/],
  ])('refuses %j with the field named', (value, message) => {
    expect(() => parseScoringRules(value)).toThrow(message);
  });
});

describe('the model judge', () => {
  let endpoint: ModelEndpoint | undefined;
  let home: string;
  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), 'wb-judge-'));
  });
  afterEach(async () => {
    await endpoint?.close();
    endpoint = undefined;
    rmSync(home, {recursive: true, force: true});
  });

  const many = (n: number) => Array.from({length: n}, (_, index) => status(`k${index}`, {text: `post number ${index}`}));

  async function judgeWith(key: string | undefined, answer: (count: number) => string) {
    endpoint = await startModelEndpoint({key: 'sk-judge-secret-1234'});
    endpoint.respond = ({body}) => {
      const text = JSON.stringify(body);
      const count = (text.match(/s\d+ \(@alice\)/g) ?? []).length;
      return {text: answer(count)};
    };
    writeFileSync(join(home, '.workbench.kdl'), `agent {\n  base-url "${endpoint.url}"\n}\n`);
    return openModelJudge({cwd: home, env: key ? {MESSAGES_API_KEY: key} : {}, home});
  }

  const fullAnswer = (count: number) => JSON.stringify(Array.from({length: count}, (_, index) => ({id: `s${index + 1}`, relevance: 0.9, why: 'on topic'})));

  it('asks in batches of at most 50, within the cycle’s budget', async () => {
    const judge = await judgeWith('sk-judge-secret-1234', fullAnswer);
    const outcome = await judge.judge(many(120), 'Rust', {maxCalls: 10});
    expect(outcome.calls).toBe(3);
    expect(outcome.judgements.size).toBe(120);
    expect(outcome.problem).toBeNull();
    expect(endpoint!.requests).toHaveLength(3);
    const limited = await judge.judge(many(120), 'Rust', {maxCalls: 1});
    expect(limited.unjudged).toBe(70);
    expect(limited.problem).toMatch(/budget for this cycle \(1 call\) was spent: 70 statuses/);
  });

  it('takes what it can from an answer in a code fence, with ids missing or garbage', async () => {
    const judge = await judgeWith(
      'sk-judge-secret-1234',
      () => 'Here you go:\n```json\n[{"id":"s2","relevance":"0.7","why":"ok\\u001b[2J"},{"id":"zz","relevance":1},{"id":"s1","relevance":5}]\n```',
    );
    const outcome = await judge.judge(many(3), 'Rust', {maxCalls: 5});
    expect(outcome.judgements.get('k1')).toEqual({relevance: 0.7, why: 'ok [2J'});
    expect(outcome.judgements.get('k0')!.relevance).toBe(1);
    expect(outcome.unjudged).toBe(1);
  });

  it('an endpoint that is down is a problem to show, not a throw; the key never appears', async () => {
    const judge = await judgeWith('sk-judge-secret-1234', fullAnswer);
    await endpoint!.close();
    const outcome = await judge.judge(many(10), 'Rust', {maxCalls: 5});
    expect(outcome.calls).toBe(1);
    expect(outcome.unjudged).toBe(10);
    expect(outcome.problem).toMatch(/the model failed/);
    expect(outcome.problem).not.toContain('sk-judge-secret-1234');
    endpoint = undefined;
  });

  it('no credential: a problem that says how to fix it, and no request', async () => {
    const judge = await judgeWith(undefined, fullAnswer);
    const outcome = await judge.judge(many(10), 'Rust', {maxCalls: 5});
    expect(outcome.problem).toMatch(/no model credential: set MESSAGES_API_KEY/);
    expect(outcome.calls).toBe(0);
    expect(endpoint!.requests).toHaveLength(0);
  });
});
