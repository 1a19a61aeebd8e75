// The change-event triggers' SQL per provider, without a database: names within the identifier
// limits, the value conversions that keep payloads as the service writes them, soft deletes as
// deletes, the payload modes, refusals with their reasons, and the detection that hands a table's
// capture to its triggers (and the service's recorder stepping aside).
import {describe, expect, it} from 'vitest';
import {recorderFor} from '../../../source/gql/events/capture.js';
import {OUTBOX_COLUMNS} from '../../../source/gql/events/outbox-contract.js';
import {markTriggerCapture} from '../../../source/gql/events/triggers/detect.js';
import {dropTriggerStatements, triggerName, triggerPlans, triggerStatements} from '../../../source/gql/events/triggers/index.js';
import {modelFrom} from '../../../source/gql/load-model.js';
import {writeScope} from '../../../source/gql/mutate/prepare.js';
import type {DbModel, GqlModel, ModelProblem, Provider} from '../../../source/gql/types.js';
import {column, table} from './chinook-db-model.js';

const SCHEMA: Record<string, string> = {postgres: 'public', mysql: 'shop', sqlite: 'main', sqlserver: 'dbo'};
const LONG = 'a_table_name_long_enough_that_the_trigger_name_passes_the_limit';

function dbModel(provider: Provider): DbModel {
  const schema = SCHEMA[provider]!;
  return {
    provider,
    defaultSchema: schema,
    procedures: [],
    tables: [
      table(
        'orders',
        [
          column('id', 'int', {nullable: false, isIdentity: true}),
          column('tenant_id'),
          column('status'),
          column('amount', 'decimal'),
          column('big', 'bigint'),
          column('blob', 'binary'),
          column('deleted_at', 'datetime'),
        ],
        ['id'],
        [],
        schema,
      ),
      // The key in primary-key order, not column order.
      table('lines', [column('order_id', 'int'), column('line_no', 'int'), column('qty', 'int')], ['line_no', 'order_id'], [], schema),
      table('nokey', [column('a')], [], [], schema),
      table(LONG, [column('id', 'int')], ['id'], [], schema),
      table(
        'wb_outbox',
        OUTBOX_COLUMNS.map((name) => column(name)),
        ['id'],
        [],
        schema,
      ),
    ],
  };
}

function model(provider: Provider, ...rules: string[]): GqlModel {
  const {model: built, problems} = modelFrom(dbModel(provider), [`:root { outbox-table: ${SCHEMA[provider]}.wb_outbox; }`, ...rules]);
  expect(problems).toEqual([]);
  return built;
}

const orders = (provider: Provider, props: string) => model(provider, `${SCHEMA[provider]}.orders { ${props} }`);
const sqlOf = (built: GqlModel, name = 'orders') => triggerStatements(built, built.byKey.get(`${SCHEMA[built.provider]}.${name}`)!).join('\n');
const ALL = 'emit-events: insert, update, delete; tenant-filter: tenant_id; soft-delete: deleted_at;';

describe('trigger names', () => {
  it('are wb_cdc_<table>_<op>, a long table name cut and hashed within the limit', () => {
    expect(triggerName('postgres', {schema: 'public', dbName: 'orders'}, 'insert')).toBe('wb_cdc_orders_insert');
    const pg = triggerName('postgres', {schema: 'public', dbName: LONG}, 'update');
    expect(Buffer.byteLength(pg)).toBeLessThanOrEqual(63);
    expect(pg).toMatch(/^wb_cdc_a_table_name_long.*_[0-9a-f]{8}_update$/);
    expect(Buffer.byteLength(triggerName('mysql', {schema: 'shop', dbName: LONG}, 'delete'))).toBeLessThanOrEqual(64);
    // Two long names sharing their first 40 characters still get two triggers; the same one always the same.
    expect(triggerName('postgres', {schema: 'public', dbName: `${LONG}_x`}, 'update')).not.toBe(pg);
    expect(triggerName('postgres', {schema: 'public', dbName: LONG}, 'update')).toBe(pg);
  });

  it('plans one trigger per emitted operation; a soft delete rides on the UPDATE trigger, a hard delete-type does not', () => {
    const plans = (provider: Provider, props: string) => triggerPlans('postgres', orders(provider, props).byKey.get('public.orders')!);
    expect(plans('postgres', ALL).map((plan) => [plan.on, plan.branches])).toEqual([
      ['insert', ['insert']],
      ['update', ['soft-delete', 'update']],
      ['delete', ['delete']],
    ]);
    expect(plans('postgres', 'emit-events: delete; soft-delete: deleted_at;').map((plan) => [plan.on, plan.branches])).toEqual([
      ['update', ['soft-delete']],
      ['delete', ['delete']],
    ]);
    expect(plans('postgres', 'emit-events: update, delete; soft-delete: deleted_at; delete-type: hard;').map((plan) => [plan.on, plan.branches])).toEqual([
      ['update', ['update']],
      ['delete', ['delete']],
    ]);
    expect(plans('postgres', 'emit-events: insert;').map((plan) => plan.name)).toEqual(['wb_cdc_orders_insert']);
  });
});

describe('PostgreSQL triggers', () => {
  it('one plpgsql function and trigger per operation, after dropping every name, images from to_jsonb with the service’s conversions', () => {
    const sql = sqlOf(orders('postgres', ALL));
    expect(sql.indexOf('drop trigger if exists "wb_cdc_orders_delete" on "public"."orders"')).toBeLessThan(sql.indexOf('create function'));
    expect(sql).toContain('drop function if exists "public"."wb_cdc_orders_update"()');
    expect(sql).toContain('create function "public"."wb_cdc_orders_insert"() returns trigger language plpgsql');
    expect(sql).toContain('create trigger "wb_cdc_orders_update" after update on "public"."orders" for each row execute function "public"."wb_cdc_orders_update"()');
    // bigint and numeric as text, binary as hex: what node-postgres and jsonValue give the service.
    expect(sql).toContain(`wb_new jsonb := to_jsonb(NEW) || jsonb_build_object('amount', NEW."amount"::text, 'big', NEW."big"::text, 'blob', encode(NEW."blob", 'hex'))`);
    // aggregate_id as JSON.stringify writes it: no space after the colon.
    expect(sql).toContain(`'{"id":' || to_jsonb(NEW."id")::text || '}'`);
    expect(sql).toContain(`if (OLD."deleted_at" is null and NEW."deleted_at" is not null) then`);
    expect(sql).toContain(`'op', 'delete', 'key', jsonb_build_object('id', NEW."id")) || jsonb_build_object('before', wb_old) || jsonb_build_object('after', wb_new)`);
    expect(sql).toContain(`coalesce((NEW."tenant_id")::text, (OLD."tenant_id")::text), now()`);
    expect(sql).toContain('insert into "public"."wb_outbox" (aggregate, aggregate_id, op, payload, tenant, created_at)');
  });

  it('changed: only the changed columns on update (jsonb is distinct from), every column otherwise; keys: no image read at all', () => {
    const changed = sqlOf(orders('postgres', `${ALL} event-payload: changed;`));
    expect(changed).toContain('where n.value is distinct from o.value');
    expect(changed).toContain(`from jsonb_each(wb_old) o)`);
    const keys = sqlOf(orders('postgres', `${ALL} event-payload: keys;`));
    expect(keys).not.toMatch(/to_jsonb\((NEW|OLD)\)|'before'|'after'|'changes'|wb_old|wb_new/);
    expect(keys).toContain(`jsonb_build_object('table', 'public.orders', 'op', 'insert', 'key', jsonb_build_object('id', NEW."id"))`);
  });

  it('composite keys in primary-key order; no tenant column writes a null tenant', () => {
    const built = model('postgres', 'public.lines { emit-events: delete; }');
    const sql = sqlOf(built, 'lines');
    expect(sql).toContain(`'{"line_no":' || to_jsonb(OLD."line_no")::text || ',"order_id":' || to_jsonb(OLD."order_id")::text || '}'`);
    expect(sql).toContain(`jsonb_build_object('line_no', OLD."line_no", 'order_id', OLD."order_id")`);
    expect(sql).toMatch(/, 'delete', .*, null, now\(\)/s);
  });
});

describe('MariaDB triggers', () => {
  it('single-statement triggers listing the columns in JSON_OBJECT, compacted as JSON.stringify writes', () => {
    const statements = triggerStatements(orders('mysql', ALL), orders('mysql', ALL).byKey.get('shop.orders')!);
    // No statement separator inside: the output runs in the mysql client without DELIMITER.
    for (const statement of statements) expect(statement).not.toContain(';');
    const sql = statements.join('\n');
    // Replaced in one step each (MariaDB commits every DDL statement: a drop and a create would leave a gap).
    expect(sql).not.toContain('drop trigger');
    expect(sql).toContain('create or replace trigger `shop`.`wb_cdc_orders_update` after update on `shop`.`orders` for each row');
    // An operation no longer emitted loses its trigger.
    const onlyInserts = orders('mysql', 'emit-events: insert;');
    expect(triggerStatements(onlyInserts, onlyInserts.byKey.get('shop.orders')!).filter((statement) => statement.startsWith('drop'))).toEqual([
      'drop trigger if exists `shop`.`wb_cdc_orders_update`',
      'drop trigger if exists `shop`.`wb_cdc_orders_delete`',
    ]);
    expect(sql).toContain("json_compact(json_object('id', NEW.`id`))");
    expect(sql).toContain("'amount', cast(NEW.`amount` as char), 'big', NEW.`big`, 'blob', lower(hex(NEW.`blob`))");
    // The soft delete picks its op and payload with IF (MariaDB will not UNION the JSON functions' collation with the connection's).
    expect(sql).toContain("if((OLD.`deleted_at` is null and NEW.`deleted_at` is not null), 'delete', 'update')");
    expect(sql).not.toMatch(/union/i);
    expect(sql).toContain('current_timestamp(6) from dual');
  });

  it('changed: one merged object of the changed columns, strings compared byte for byte', () => {
    const sql = sqlOf(orders('mysql', `emit-events: update; event-payload: changed;`));
    expect(sql).toContain("json_merge_preserve('{}', if(NEW.`id` <=> OLD.`id`, '{}', json_object('id', json_object('old', OLD.`id`, 'new', NEW.`id`)))");
    expect(sql).toContain('if(binary NEW.`status` <=> binary OLD.`status`');
    expect(sql).toContain("'changes', json_merge_preserve(");
    expect(sql).not.toContain(' where ');
  });
});

describe('SQLite triggers', () => {
  it('json_object images, blobs as hex, the outbox unqualified, created_at as ISO text', () => {
    const sql = sqlOf(orders('sqlite', `${ALL} event-payload: changed;`));
    expect(sql).toContain('create trigger "wb_cdc_orders_insert" after insert on "orders" for each row\nbegin');
    expect(sql).toContain('insert into "wb_outbox" (aggregate, aggregate_id, op, payload, tenant, created_at)');
    expect(sql).toContain(`case when NEW."blob" is null then null else lower(hex(NEW."blob")) end`);
    expect(sql).toContain(`strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`);
    expect(sql).toContain(`where (OLD."deleted_at" is null and NEW."deleted_at" is not null);`);
    expect(sql).toContain(`where not (OLD."deleted_at" is null and NEW."deleted_at" is not null);`);
    expect(sql).toContain(`(select json_group_object(c, json_object('old', o, 'new', n)) from (select 'id' as c, OLD."id" as o, NEW."id" as n union all`);
    expect(dropTriggerStatements({provider: 'sqlite'}, {schema: 'main', dbName: 'orders'})).toEqual([
      'drop trigger if exists "wb_cdc_orders_insert"',
      'drop trigger if exists "wb_cdc_orders_update"',
      'drop trigger if exists "wb_cdc_orders_delete"',
    ]);
  });
});

describe('refusals', () => {
  it('a table without a primary key, one without events, and SQL Server, each with its reason', () => {
    const built = model('postgres', 'public.nokey { emit-events: insert; }');
    expect(() => triggerStatements(built, built.byKey.get('public.nokey')!)).toThrow(/public.nokey has no primary key: .*add a primary key/);
    expect(() => triggerStatements(built, built.byKey.get('public.lines')!)).toThrow(/public.lines emits no events: set emit-events/);
    const sqlServer = model('sqlserver', 'dbo.orders { emit-events: insert; }');
    expect(() => triggerStatements(sqlServer, sqlServer.byKey.get('dbo.orders')!)).toThrow(/PostgreSQL, MariaDB\/MySQL and SQLite, not sqlserver/);
  });

  it('refuses a MariaDB name holding a backslash (its meaning depends on sql_mode)', () => {
    const built = orders('mysql', 'emit-events: insert;');
    const odd = built.byKey.get('shop.orders')!;
    expect(() => triggerStatements(built, {...odd, columns: [...odd.columns, {...odd.columns[1]!, dbName: 'a\\b'}]})).toThrow(/backslash/);
  });
});

describe('detection', () => {
  const user = {claims: {tenant_id: 't'}, roles: [], anonymous: false};

  it('hands a table to its installed triggers: the service records nothing for it', () => {
    const built = orders('postgres', ALL);
    const problems: ModelProblem[] = [];
    markTriggerCapture(built, new Map([['public.orders', new Set(['wb_cdc_orders_insert', 'wb_cdc_orders_update', 'wb_cdc_orders_delete'])]]), problems);
    expect(problems).toEqual([]);
    const table = built.byKey.get('public.orders')!;
    expect(table.events?.capture).toBe('trigger');
    expect(recorderFor(writeScope(built, table, user))).toBeUndefined();
  });

  it('leaves a table without triggers to the service, and flags triggers that do not match the rules', () => {
    const built = orders('postgres', ALL);
    const problems: ModelProblem[] = [];
    markTriggerCapture(built, new Map([['public.other', new Set(['wb_cdc_other_insert'])]]), problems);
    expect(built.byKey.get('public.orders')!.events?.capture).toBe('service');
    expect(recorderFor(writeScope(built, built.byKey.get('public.orders')!, user))).toBeDefined();
    markTriggerCapture(built, new Map([['public.orders', new Set(['wb_cdc_orders_insert'])]]), problems);
    expect(problems).toEqual([
      {
        message: expect.stringMatching(
          /public.orders has change-event triggers that do not match its emit-events \(installed: wb_cdc_orders_insert; needed: .*\): run `workbench gql events install-triggers` again/,
        ),
        target: 'public.orders',
      },
    ]);
    expect(built.byKey.get('public.orders')!.events?.capture).toBe('service');
  });
});
