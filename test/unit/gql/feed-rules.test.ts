// The feed surface's keys at model load (spec 3, syndicated feed surface): every failure the spec
// lists, named with its rule, and what a valid model carries.
import {describe, expect, it} from 'vitest';
import {parseTemplate} from '../../../source/gql/feed-surface/template.js';
import {modelFrom} from '../../../source/gql/load-model.js';
import type {DbModel} from '../../../source/gql/types.js';
import {column, table} from './chinook-db-model.js';

function db(): DbModel {
  return {
    provider: 'sqlite',
    defaultSchema: 'main',
    procedures: [],
    tables: [
      table(
        'posts',
        [
          column('id', 'int'),
          column('tenant_id', 'int'),
          column('title'),
          column('body'),
          column('slug'),
          column('secret'),
          column('published_at', 'datetime'),
          column('day', 'date'),
          column('deleted_at', 'datetime'),
        ],
        ['id'],
      ),
      table('entries', [column('feed', 'string'), column('seq', 'int'), column('title'), column('at', 'datetime')], ['feed', 'seq']),
      table('notes', [column('title'), column('at', 'datetime')], []),
    ],
  };
}

const FEED = 'feed-timestamp: published_at; feed-title: title; feed-body: body';

function problems(...rules: string[]): string {
  const result = modelFrom(db(), rules);
  expect(result.problems.length).toBeGreaterThan(0);
  return result.problems.map((problem) => `${problem.message} [${problem.rule ?? ''}]`).join('\n');
}

describe('feed keys at model load: a valid model', () => {
  it('a table with feed-timestamp, a title column, a body and a link template is published', () => {
    const {model, problems: found} = modelFrom(db(), [`main.posts { ${FEED}; feed-link: \`https://example.com/{slug}?id={ID}\` }`]);
    expect(found).toEqual([]);
    expect(model.byKey.get('main.posts')?.feed).toEqual({
      timestamp: 'published_at',
      title: [{column: 'title'}],
      body: 'body',
      link: [{text: 'https://example.com/'}, {column: 'slug'}, {text: '?id='}, {column: 'id'}],
    });
    expect(model.byKey.get('main.entries')?.feed).toBeUndefined();
  });

  it('a title template, a date column as the timestamp, a composite primary key', () => {
    const {model, problems: found} = modelFrom(db(), [
      'main.posts { feed-timestamp: day; feed-title: {title} ({slug}); feed-body: body }',
      'main.entries { feed-timestamp: at; feed-title: {feed} #{seq}: {title}; feed-body: title }',
    ]);
    expect(found).toEqual([]);
    expect(model.byKey.get('main.posts')?.feed?.title).toEqual([{column: 'title'}, {text: ' ('}, {column: 'slug'}, {text: ')'}]);
    expect(model.byKey.get('main.entries')?.feed).toMatchObject({timestamp: 'at', body: 'title'});
  });

  it('feed keys accumulate across rules like any other (last writer wins)', () => {
    const {model, problems: found} = modelFrom(db(), [
      'main.* { feed-body: body }',
      'main.posts { feed-timestamp: published_at; feed-title: slug }',
      'main.entries { feed-body: }',
    ]);
    // The broad rule reached entries and notes, which have no feed-timestamp: rejected, each named.
    expect(found.map((problem) => problem.message)).toEqual([
      expect.stringMatching(/^main\.entries: feed-body: "": needs feed-timestamp/),
      expect.stringMatching(/^main\.notes: feed-body: "body": needs feed-timestamp/),
    ]);
    expect(found[1]?.rule).toBe('main.* { feed-body: body }');
    expect(model.byKey.get('main.posts')?.feed?.title).toEqual([{column: 'slug'}]);
  });
});

describe('feed keys at model load: every failure', () => {
  it('feed keys without feed-timestamp', () => {
    const text = problems('main.posts { feed-title: title; feed-body: body; feed-link: {slug} }');
    expect(text).toContain('main.posts: feed-title: "title": needs feed-timestamp on the same table');
    expect(text).toContain('main.posts: feed-body: "body": needs feed-timestamp');
    expect(text).toContain('main.posts: feed-link: "{slug}": needs feed-timestamp');
    expect(text).toContain('[main.posts { feed-title: title; feed-body: body; feed-link: {slug} }]');
  });

  it('feed-timestamp naming a missing column, or one that is not a date/time', () => {
    expect(problems('main.posts { feed-timestamp: nope; feed-title: title; feed-body: body }')).toContain('feed-timestamp: "nope": the table has no column nope');
    expect(problems('main.posts { feed-timestamp: title; feed-title: title; feed-body: body }')).toContain(
      'feed-timestamp: "title": title is not a date/time column (it is string)',
    );
    expect(problems('main.posts { feed-timestamp: id; feed-title: title; feed-body: body }')).toContain('id is not a date/time column (it is int)');
  });

  it('feed-title and feed-body are required, and must name columns that exist', () => {
    expect(problems('main.posts { feed-timestamp: published_at; feed-body: body }')).toContain('feed-title is required with feed-timestamp');
    expect(problems('main.posts { feed-timestamp: published_at; feed-title: title }')).toContain('feed-body is required with feed-timestamp');
    expect(problems('main.posts { feed-timestamp: published_at; feed-title: headline; feed-body: body }')).toContain('feed-title: "headline": the table has no column headline');
    expect(problems('main.posts { feed-timestamp: published_at; feed-title: {title} by {author}; feed-body: body }')).toContain('the table has no column author');
    expect(problems('main.posts { feed-timestamp: published_at; feed-title: title; feed-body: text }')).toContain('feed-body: "text": the table has no column text');
    expect(problems('main.posts { feed-timestamp: published_at; feed-title: title; feed-body: {body} }')).toContain('feed-body: "{body}": is a column name, not a template');
  });

  it('feed-link: a template naming existing columns, with at least one placeholder', () => {
    expect(problems(`main.posts { ${FEED}; feed-link: https://example.com/{permalink} }`)).toContain(
      'feed-link: "https://example.com/{permalink}": the table has no column permalink',
    );
    expect(problems(`main.posts { ${FEED}; feed-link: https://example.com/ }`)).toContain('has no {column} placeholder');
  });

  it.each([
    ['{', 'has no closing "}"'],
    ['{}', 'names no column'],
    ['{ }', 'names no column'],
    ['{title', 'has no closing "}"'],
    ['x {title{slug}}', 'placeholders do not nest'],
    ['{{title}}', 'placeholders do not nest'],
    ['title}', 'closes no placeholder'],
  ])('a malformed placeholder in feed-title or feed-link: %s', (value, reason) => {
    const title = problems(`main.posts { ${FEED.replace('feed-title: title', `feed-title: \`${value}\``)} }`);
    expect(title).toMatch(new RegExp(`feed-title: .*: malformed placeholder: .*${reason.replace(/[{}"]/g, '.')}`));
    expect(problems(`main.posts { ${FEED}; feed-link: \`https://e.com/${value}\` }`)).toMatch(
      new RegExp(`feed-link: .*: malformed placeholder: .*${reason.replace(/[{}"]/g, '.')}`),
    );
  });

  it('unknown feed-* keys, on a table, a column or the model', () => {
    expect(problems(`main.posts { ${FEED}; feed-author: slug }`)).toContain("feed-author is not a feed key: the spec's are feed-timestamp, feed-title, feed-body, feed-link");
    expect(problems('main.posts { feed-summary: body }')).toContain('feed-summary is not a feed key');
    expect(problems('main.posts.title { feed-title: title }')).toContain('main.posts.title: feed-title: "title": applies to a table, not to a column');
    expect(problems(':root { feed-timestamp: published_at }')).toContain(':root: feed-timestamp: "published_at": applies to a table, not to a model');
  });

  it('empty values', () => {
    expect(problems('main.posts { feed-timestamp: ; feed-title: title; feed-body: body }')).toContain('feed-timestamp: "": is empty');
    expect(problems('main.posts { feed-timestamp: published_at; feed-title: ; feed-body: body }')).toContain('feed-title: "": is empty');
    expect(problems('main.posts { feed-timestamp: published_at; feed-title: title; feed-body: `  ` }')).toContain('feed-body: "  ": is empty');
    expect(problems(`main.posts { ${FEED}; feed-link: }`)).toContain('feed-link: "": is empty');
  });

  it('a table without a primary key', () => {
    expect(problems('main.notes { feed-timestamp: at; feed-title: title; feed-body: title }')).toContain('main.notes has no primary key: a feed needs one (one or more columns)');
  });

  it('hidden columns the feed would publish, a hidden key, a hidden table', () => {
    const hidden = (where: string) => `main.posts.${where} { visibility: hidden }`;
    expect(problems(`main.posts { ${FEED} }`, hidden('title'))).toContain('title is hidden (visibility: hidden): the feed would publish it');
    expect(problems(`main.posts { ${FEED} }`, hidden('body'))).toContain('body is hidden');
    expect(problems(`main.posts { ${FEED} }`, hidden('published_at'))).toContain('published_at is hidden');
    expect(problems(`main.posts { ${FEED}; feed-link: {secret} }`, hidden('secret'))).toContain('feed-link: "{secret}": secret is hidden');
    expect(problems(`main.posts { ${FEED} }`, hidden('id'))).toContain('primary-key column id is hidden');
    expect(problems(`main.posts { ${FEED}; visibility: hidden }`)).toContain('the table is hidden (visibility: hidden): a feed would publish it');
  });
});

describe('parseTemplate', () => {
  it('splits text and placeholders, trimming names', () => {
    expect(parseTemplate('{ a } and {b}!')).toEqual({parts: [{column: 'a'}, {text: ' and '}, {column: 'b'}, {text: '!'}]});
    expect(parseTemplate('plain')).toEqual({parts: [{text: 'plain'}]});
  });
});
