// The metadata rule syntax, rule by rule as the spec numbers them, and every malformed shape.
import {describe, expect, it} from 'vitest';
import {parseRules} from '../../../source/gql/metadata/parse-rules.js';

function one(text: string) {
  const {rules, problems} = parseRules([text]);
  expect(problems).toEqual([]);
  return rules[0];
}

function problem(text: string): string {
  const {rules, problems} = parseRules([text]);
  expect(rules).toEqual([]);
  expect(problems.length).toBeGreaterThan(0);
  expect(problems[0]).toMatchObject({rule: text, ruleIndex: 0});
  return problems.map((p) => p.message).join('\n');
}

describe('parseRules', () => {
  it('reads selectors and properties in written order', () => {
    expect(one('main.Track { visibility: hidden; label: Name }')).toEqual({
      index: 0,
      text: 'main.Track { visibility: hidden; label: Name }',
      selectors: ['main.Track'],
      properties: [
        ['visibility', 'hidden'],
        ['label', 'Name'],
      ],
    });
  });

  it('1: the block runs from the first { to the last }, so values keep braces verbatim', () => {
    expect(one('main.Post { feed-link: https://x/{Slug}/{Id}; }').properties).toEqual([['feed-link', 'https://x/{Slug}/{Id}']]);
  });

  it('2: ; separates properties, but not inside backticks', () => {
    expect(one('main.T { a: `x;y`; b: c }').properties).toEqual([
      ['a', 'x;y'],
      ['b', 'c'],
    ]);
  });

  it('3: only the first : splits key from value', () => {
    expect(one('main.T { auto-filter: OrgId:org_id, Region:region }').properties).toEqual([['auto-filter', 'OrgId:org_id, Region:region']]);
  });

  it('4: , separates selectors sharing one block', () => {
    expect(one('main.A, main.B.c ,main.* { visibility: hidden }').selectors).toEqual(['main.A', 'main.B.c', 'main.*']);
  });

  it('6: a value wrapped in backticks is verbatim: not trimmed', () => {
    expect(one('main.T { a: `  spaced ; kept  ` }').properties).toEqual([['a', '  spaced ; kept  ']]);
    expect(one('main.T { a:   trimmed   }').properties).toEqual([['a', 'trimmed']]);
  });

  it('9: keys are kebab-case, min-length and max-length stored as minlength and maxlength', () => {
    expect(one('main.T.c { min-length: 2; MAX-LENGTH: 9; Tenant-Filter: x }').properties).toEqual([
      ['minlength', '2'],
      ['maxlength', '9'],
      ['tenant-filter', 'x'],
    ]);
  });

  it('10: :root is a selector', () => {
    expect(one(':root { max-query-rows: 500 }').selectors).toEqual([':root']);
  });

  it('skips empty properties (a trailing ;) and keeps an empty value', () => {
    expect(one('main.T { a: ; ; }').properties).toEqual([['a', '']]);
  });

  describe('7: malformed rules name the rule and the fault', () => {
    it.each([
      ['main.T  visibility: hidden }', /missing brace: no "\{"/],
      ['main.T { visibility: hidden', /missing brace: no "\}"/],
      ['main.T } visibility: hidden {', /missing brace/],
      ['{ visibility: hidden }', /empty selector/],
      ['main.A, { visibility: hidden }', /empty selector/],
      ['main.A,,main.B { visibility: hidden }', /empty selector/],
      ['main.T { visibility hidden }', /property without ":"/],
      ['main.T { : hidden }', /empty key/],
      ['main.T { label: a; LABEL: b }', /duplicate key: LABEL/],
      ['main.T { min-length: 1; minlength: 2 }', /duplicate key: minlength/],
      ['main.T { a: `open; b: c }', /unbalanced backtick/],
      ['main { a: b }', /selectors read :root, schema.table or schema.table.column/],
      ['a.b.c.d { a: b }', /selectors read/],
      ['main..c { a: b }', /a part is empty/],
      ['main.*|has() { a: b }', /has\(\) names no column/],
      ['main.*|foo(x) { a: b }', /only "\|has\(<column>\)"/],
      ['main.T { a: b } trailing', /text after the closing "\}"/],
    ])('%s', (text, message) => {
      const messages = problem(text);
      expect(messages).toMatch(message);
      expect(messages).toContain(JSON.stringify(text));
    });
  });

  it('reports every problem of every rule at once, keeping the good rules', () => {
    const {rules, problems} = parseRules(['main.A { a: b }', 'main.B { x }', 'main.C { y: 1; y: 2 }', 'main.D { c: d }']);
    expect(rules.map((rule) => rule.index)).toEqual([0, 3]);
    expect(problems.map((p) => p.ruleIndex)).toEqual([1, 2]);
  });
});
