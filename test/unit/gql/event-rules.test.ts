// The change-event keys at model load: every failure the spec lists, named with its rule, and
// what a valid model carries.
import {describe, expect, it} from 'vitest';
import {deliverable, redacted} from '../../../source/gql/events/deliverable.js';
import {OUTBOX_COLUMNS} from '../../../source/gql/events/outbox-contract.js';
import {modelFrom} from '../../../source/gql/load-model.js';
import type {DbModel} from '../../../source/gql/types.js';
import {chinook, column, table} from './chinook-db-model.js';

function db(withOutbox: 'full' | 'lacking' | 'none' = 'full'): DbModel {
  const model = chinook();
  if (withOutbox === 'full')
    model.tables.push(
      table(
        'wb_outbox',
        OUTBOX_COLUMNS.map((name) => column(name)),
        ['id'],
      ),
    );
  if (withOutbox === 'lacking')
    model.tables.push(
      table(
        'wb_outbox',
        OUTBOX_COLUMNS.filter((name) => name !== 'dead' && name !== 'attempts').map((name) => column(name)),
        ['id'],
      ),
    );
  return model;
}

function problems(model: DbModel, ...rules: string[]): string {
  const result = modelFrom(model, rules);
  expect(result.problems.length).toBeGreaterThan(0);
  return result.problems.map((problem) => `${problem.message} [${problem.rule ?? ''}]`).join('\n');
}

const ROOT = ':root { outbox-table: main.wb_outbox; }';

describe('change-event keys at model load', () => {
  it('a valid model: the tables that emit, their payloads, the outbox hidden, secrets and subscription', () => {
    const {model, problems: found} = modelFrom(db(), [
      ':root { outbox-table: wb_outbox; webhook-secret: old-secret, new-secret; subscription-tables: main.Track, Album; subscription-tenant: t1; subscription-redact: Name }',
      'main.Track { emit-events: insert, UPDATE; event-payload: changed }',
      'main.Album { emit-events: delete }',
    ]);
    expect(found).toEqual([]);
    expect(model.byKey.get('main.Track')?.events).toEqual({ops: ['insert', 'update'], payload: 'changed', sink: 'outbox', capture: 'service'});
    expect(model.byKey.get('main.Album')?.events).toEqual({ops: ['delete'], payload: 'full', sink: 'outbox', capture: 'service'});
    expect(model.byKey.get('main.Artist')?.events).toBeUndefined();
    expect(model.events).toEqual({
      outbox: {schema: 'main', name: 'wb_outbox', key: 'main.wb_outbox'},
      secrets: ['old-secret', 'new-secret'],
      subscription: {tables: ['main.Track', 'main.Album'], tenant: 't1', redact: ['Name']},
    });
    // The outbox holds every tenant's rows: never in the schema.
    expect(model.byKey.get('main.wb_outbox')?.hidden).toBe(true);
    expect(model.byName.has('wb_outbox')).toBe(false);
  });

  it('emit-events without an outbox-table, or naming one that does not exist', () => {
    expect(problems(db(), 'main.Track { emit-events: insert }')).toMatch(/main\.Track sets emit-events but the model names no outbox-table.*gql events init/);
    expect(problems(db('none'), ROOT, 'main.Track { emit-events: insert }')).toMatch(/outbox-table: "main.wb_outbox": no such table in the database/);
  });

  it('an outbox lacking the column contract names the missing columns', () => {
    expect(problems(db('lacking'), ROOT, 'main.Track { emit-events: insert }')).toMatch(/lacks the outbox column contract: no attempts, dead column/);
  });

  it('unknown operations, an empty list, an unknown sink or payload, sink or payload without emit-events', () => {
    expect(problems(db(), ROOT, 'main.Track { emit-events: insert, upsert, truncate }')).toMatch(/unknown operations upsert, truncate: emit-events takes insert, update, delete/);
    expect(problems(db(), ROOT, 'main.Track { emit-events: ` ` }')).toMatch(/names no operation/);
    expect(problems(db(), ROOT, 'main.Track { emit-events: insert; event-sink: kafka }')).toMatch(/event-sink: "kafka": must be outbox/);
    expect(problems(db(), ROOT, 'main.Track { emit-events: insert; event-payload: diff }')).toMatch(/event-payload: "diff": must be full or changed or keys/);
    expect(problems(db(), ROOT, 'main.Track { event-payload: keys }')).toMatch(/needs emit-events on the same table/);
  });

  it('subscription keys: an unknown one, a missing table, an empty tenant; the outbox cannot emit; keys in the wrong place', () => {
    expect(problems(db(), `${ROOT}`, ':root { subscription-topic: x }')).toMatch(/subscription-topic is not a subscription key/);
    expect(problems(db(), ROOT, ':root { subscription-tables: main.Track, main.Nope }')).toMatch(/subscription-tables names main\.Nope, which is not a table/);
    expect(problems(db(), ROOT, ':root { subscription-tenant: ` ` }')).toMatch(/subscription-tenant: " ": is empty/);
    expect(problems(db(), ROOT, 'main.wb_outbox { emit-events: insert }')).toMatch(/main\.wb_outbox is the outbox table: it cannot emit events/);
    expect(problems(db(), ROOT, 'main.Track { outbox-table: x }')).toMatch(/outbox-table.*applies to the model/);
    expect(problems(db(), ':root { emit-events: insert }')).toMatch(/emit-events.*applies to a table/);
  });
});

describe('what the sinks receive', () => {
  it('no subscription key: everything; an allow-list is fail-closed; a tenant only its rows', () => {
    expect(deliverable(undefined, {aggregate: 'main.Track', tenant: null})).toBe(true);
    expect(deliverable({tables: [], redact: []}, {aggregate: 'main.Track', tenant: null})).toBe(false);
    expect(deliverable({tables: ['main.Track'], redact: []}, {aggregate: 'main.track', tenant: null})).toBe(true);
    expect(deliverable({tables: ['main.Track'], redact: []}, {aggregate: 'main.Album', tenant: null})).toBe(false);
    expect(deliverable({tenant: 't1', redact: []}, {aggregate: 'main.Track', tenant: 't1'})).toBe(true);
    expect(deliverable({tenant: 't1', redact: []}, {aggregate: 'main.Track', tenant: 't2'})).toBe(false);
    expect(deliverable({tenant: 't1', redact: []}, {aggregate: 'main.Track', tenant: null})).toBe(false);
  });

  it('redaction strips columns from every image and change list, never the key', () => {
    const {model} = modelFrom(db(), [`:root { outbox-table: main.wb_outbox; subscription-redact: Name, TrackId, Composer }`, 'main.Track { emit-events: insert, update }']);
    const payload = {
      table: 'main.Track',
      op: 'update' as const,
      key: {TrackId: 1},
      before: {TrackId: 1, Name: 'a', Composer: 'x', Bytes: 1},
      after: {TrackId: 1, Name: 'b', Composer: 'x', Bytes: 2},
      changes: {Name: {old: 'a', new: 'b'}, Bytes: {old: 1, new: 2}},
    };
    expect(redacted(model, payload)).toEqual({
      table: 'main.Track',
      op: 'update',
      key: {TrackId: 1},
      before: {TrackId: 1, Bytes: 1},
      after: {TrackId: 1, Bytes: 2},
      changes: {Bytes: {old: 1, new: 2}},
    });
  });
});
