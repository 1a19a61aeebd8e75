// Tenant isolation end to end: the multi-tenant fixture opened through openGqlService with real
// metadata rules (tenant filter on every table with a tenant_id, soft delete and filtered update on
// tasks, populated audit columns, an auto-filter on project_members, many-to-many both ways, the
// generic table), asked GraphQL documents as users of two tenants. One tenant reaches none of the
// other's rows by any path — root lists, nested links both ways, many-to-many, filters through
// links, aggregates, `_table`, every mutation kind, batches and updateWhere — soft-deleted rows
// are gone everywhere, a delete is a stamped soft delete, and a user without the claim is refused.
//
// Two rows cross the tenant line on purpose (what a bug or a bad import leaves behind): task
// "Planted" of Acme sits in Globex's project, and Acme's task 1 carries Globex's label "secret".
import knex, {type Knex} from 'knex';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {openGqlService} from '../../../source/gql/service.js';
import type {GqlExecuteResult, GqlService, UserContext} from '../../../source/gql/types.js';
import {gqlDatabases, settingsFor, type GqlFixture} from '../../helpers/gql-databases.js';

const databases = await gqlDatabases();

const RULES = [
  '*.*|has(tenant_id) { tenant-filter: tenant_id }',
  '*.tasks { soft-delete: deleted_at; soft-delete-by: deleted_by; delete-type: soft; filtered-update: enabled; bulk-batch-threshold: 2 }',
  '*.tasks { many-to-many: labels:task_labels }',
  '*.labels { many-to-many: tasks:task_labels }',
  '*.*.created_by { populate: created-by }',
  '*.*.created_on { populate: created-on }',
  '*.*.updated_by { populate: updated-by }',
  '*.*.updated_on { populate: updated-on }',
  '*.project_members { auto-filter: user_id:sub }',
  ':root { generic-table: enabled; auto-filter-bypass-role: lead }',
];

const person = (sub: string, tenant: number | undefined, roles: string[] = []): UserContext => ({
  claims: tenant === undefined ? {sub} : {sub, tenant_id: tenant},
  roles,
  auditKey: sub,
  anonymous: false,
});
/** Acme (tenant 1) and Globex (tenant 2); the lead bypasses the auto-filter, not the tenant. */
const ann = person('alice', 1);
const lead = person('bob', 1, ['lead']);
const gus = person('hank', 2);
const admin = person('root', 2, ['gql-admin']);
const adminLead = person('root', 2, ['gql-admin', 'lead']);
const nobody = person('drifter', undefined, ['gql-admin', 'lead']);

type Row = Record<string, unknown>;

describe.each(databases)('tenant isolation through the service on $kind', (database) => {
  const maybe = database.unavailable ? it.skip : it;
  let fixture: GqlFixture | undefined;
  let service: GqlService;
  let db: Knex;
  let planted: number;

  const run = async (who: UserContext, query: string, variables?: Record<string, unknown>): Promise<GqlExecuteResult> =>
    JSON.parse(JSON.stringify(await service.execute({query, variables, user: who}))) as GqlExecuteResult;
  /** The data of a query that must succeed. */
  const ask = async (who: UserContext, query: string, variables?: Record<string, unknown>): Promise<Record<string, unknown>> => {
    const result = await run(who, query, variables);
    expect(result.errors, query).toBeUndefined();
    return result.data as Record<string, unknown>;
  };
  const page = async (who: UserContext, query: string, field: string) => ((await ask(who, query))[field] as {data: Row[]}).data;
  const ids = (rows: Row[]) => rows.map((row) => Number(row.id)).sort((a, b) => a - b);
  const names = (rows: Row[], key = 'name') => rows.map((row) => row[key]).sort();
  const tasksTable = () => db('tasks').orderBy('id');

  beforeAll(async () => {
    if (database.unavailable) return;
    fixture = await database.createTenantFixture();
    db = knex({...fixture.knexConfig, pool: {min: 0, max: 1}});
    await db('tasks').insert({tenant_id: 1, project_id: 3, title: 'Planted', done: false, estimate: 4});
    planted = Number((await db('tasks').where({title: 'Planted'}).first('id')).id);
    await db('task_labels').insert({task_id: 1, label_id: 3});
    service = await openGqlService(settingsFor(fixture, RULES), {poolMax: 2});
  });
  afterAll(async () => {
    await service?.close();
    await db?.destroy();
    await fixture?.drop();
  });

  maybe('root lists: only the own tenant, soft-deleted rows gone, a filter naming the other tenant finds nothing', async () => {
    expect(ids(await page(ann, '{ tasks { data { id } } }', 'tasks'))).toEqual([1, 2, 4, planted]);
    expect(ids(await page(gus, '{ tasks { data { id } } }', 'tasks'))).toEqual([5, 7]);
    expect((await ask(ann, '{ tasks { total } }')).tasks).toEqual({total: 4});
    expect(await page(ann, '{ tasks(filter: {tenant_id: {_eq: 2}}) { data { id } } }', 'tasks')).toEqual([]);
    expect(await page(ann, '{ tasks(filter: {or: [{tenant_id: {_eq: 2}}, {id: {_in: [5, 6, 7]}}]}) { data { id } } }', 'tasks')).toEqual([]);
    expect(await page(ann, '{ tasks(filter: {deleted_at: {_null: false}}) { data { id } } }', 'tasks')).toEqual([]);
    expect(names(await page(gus, '{ labels { data { name } } }', 'labels'))).toEqual(['secret']);
    expect(ids(await page(ann, '{ projects { data { id } } }', 'projects'))).toEqual([1, 2]);
    // The view has a tenant_id too: the rule reaches it.
    expect(ids(await page(ann, '{ open_tasks { data { id } } }', 'open_tasks'))).toEqual([2, 4, planted]);
    expect(names(await page(gus, '{ audit_log { data { tenant_id } } }', 'audit_log'), 'tenant_id')).toEqual([2]);
  });

  maybe('nested links both ways and many-to-many: the other tenant is absent inside too', async () => {
    // Globex's project holds Acme's planted task: Globex does not see it under its project…
    const projects = await page(gus, '{ projects { data { id tasks { id title } } } }', 'projects');
    expect(projects.map((project) => [project.id, ids(project.tasks as Row[])])).toEqual([[3, [5, 7]]]);
    // …and Acme sees the task, but not Globex's project above it.
    expect(await page(ann, `{ tasks(filter: {id: {_eq: ${planted}}}) { data { title projects { name } } } }`, 'tasks')).toEqual([{title: 'Planted', projects: null}]);
    // From a table without a tenant column (tenants), each tenant's collections stay its own.
    const tenants = await page(gus, '{ tenants(sort: [id_asc]) { data { id tasks { id } projects { id } labels { name } } } }', 'tenants');
    expect(tenants.map((tenant) => [tenant.id, ids(tenant.tasks as Row[]), ids(tenant.projects as Row[]), names(tenant.labels as Row[])])).toEqual([
      [1, [], [], []],
      [2, [5, 7], [3], ['secret']],
    ]);
    // Many-to-many across the line: Acme's task 1 carries Globex's label; neither side sees the other's row.
    const task1 = await page(ann, '{ tasks(filter: {id: {_eq: 1}}) { data { labels { name } } } }', 'tasks');
    expect(names(task1[0]?.labels as Row[])).toEqual(['urgent']);
    const secret = await page(gus, '{ labels { data { name tasks { title } } } }', 'labels');
    expect(names(secret[0]?.tasks as Row[], 'title')).toEqual(['Hire staff', 'World plan']);
    // The junction has no tenant column; what it points at still does.
    const links = await page(gus, '{ task_labels(filter: {label_id: {_eq: 3}}) { data { task_id tasks { title } labels { name } } } }', 'task_labels');
    expect(links.find((link) => link.task_id === 1)).toEqual({task_id: 1, tasks: null, labels: {name: 'secret'}});
    // A nested collection's own filter cannot widen it past the tenant.
    const widened = await page(gus, '{ projects { data { tasks(filter: {or: [{tenant_id: {_eq: 1}}, {title: {_eq: "Planted"}}]}) { id } } } }', 'projects');
    expect(widened[0]?.tasks).toEqual([]);
    // Soft-deleted tasks are gone under their project as well.
    const anvils = await page(ann, '{ projects(filter: {id: {_eq: 2}}) { data { tasks { id } } } }', 'projects');
    expect(ids(anvils[0]?.tasks as Row[])).toEqual([4]);
  });

  maybe('filters through links (EXISTS) apply the tenant and soft-delete rules inside', async () => {
    expect(await page(gus, '{ projects(filter: {tasks: {title: {_eq: "Planted"}}}) { data { id } } }', 'projects')).toEqual([]);
    expect(await page(gus, '{ labels(filter: {tasks: {title: {_eq: "Design fins"}}}) { data { id } } }', 'labels')).toEqual([]);
    expect(await page(gus, '{ labels(filter: {task_labels: {tasks: {title: {_eq: "Design fins"}}}}) { data { id } } }', 'labels')).toEqual([]);
    expect(await page(ann, '{ tenants(filter: {tasks: {title: {_eq: "World plan"}}}) { data { id } } }', 'tenants')).toEqual([]);
    expect(await page(ann, '{ tasks(filter: {projects: {name: {_eq: "Plans"}}}) { data { id } } }', 'tasks')).toEqual([]);
    expect(await page(ann, '{ projects(filter: {tasks: {title: {_eq: "Old anvil"}}}) { data { id } } }', 'projects')).toEqual([]);
    // Through the many-to-many (Acme's task 1 carries Globex's label), and inside a nested collection.
    expect(await page(ann, '{ tasks(filter: {labels: {name: {_eq: "secret"}}}) { data { id } } }', 'tasks')).toEqual([]);
    const nested = await page(ann, '{ tenants(sort: [id_asc]) { data { tasks(filter: {projects: {name: {_eq: "Plans"}}}) { id } } } }', 'tenants');
    expect(nested).toEqual([{tasks: []}, {tasks: []}]);
    // The same filters on the own tenant's rows do match: the EXISTS is not simply empty.
    expect(ids(await page(ann, '{ projects(filter: {tasks: {title: {_eq: "Drop test"}}}) { data { id } } }', 'projects'))).toEqual([2]);
    expect(ids(await page(gus, '{ labels(filter: {tasks: {title: {_eq: "World plan"}}}) { data { id } } }', 'labels'))).toEqual([3]);
    expect(ids(await page(ann, '{ tasks(filter: {labels: {name: {_eq: "urgent"}}}) { data { id } } }', 'tasks'))).toEqual([1, 2]);
  });

  maybe('aggregates count and sum only the own live rows, whatever the filter or grouping', async () => {
    const mine = (await ask(ann, '{ tasksAggregate(groupBy: [tenant_id]) { tenant_id _count _sum { estimate } } }')).tasksAggregate as Row[];
    expect(mine.map((group) => [group.tenant_id, group._count, Number((group._sum as Row).estimate)])).toEqual([[1, 4, 16.5]]);
    const theirs = (await ask(ann, '{ tasksAggregate(filter: {tenant_id: {_eq: 2}}) { _count } }')).tasksAggregate as Row[];
    expect(theirs.reduce((sum, group) => sum + Number(group._count), 0)).toBe(0);
    const throughLink = (await ask(gus, '{ projectsAggregate(filter: {tasks: {title: {_eq: "Planted"}}}) { _count } }')).projectsAggregate as Row[];
    expect(throughLink.reduce((sum, group) => sum + Number(group._count), 0)).toBe(0);
    const labels = (await ask(gus, '{ labelsAggregate(groupBy: [tenant_id]) { tenant_id _count } }')).labelsAggregate as Row[];
    expect(labels).toEqual([{tenant_id: 2, _count: 1}]);
  });

  maybe('_table: for its role only, and inside the tenant, the soft delete and the auto-filter', async () => {
    const tasks = (await ask(admin, '{ _table(name: "tasks") }'))._table as Row[];
    expect(ids(tasks)).toEqual([5, 7]);
    expect((await ask(admin, '{ _table(name: "tasks", filter: {tenant_id: {_eq: 1}}) }'))._table).toEqual([]);
    expect((await ask(admin, '{ _table(name: "tasks", filter: {id: {_eq: 6}}) }'))._table).toEqual([]);
    expect(names((await ask(admin, '{ _table(name: "project_members") }'))._table as Row[], 'user_id')).toEqual([]);
    expect(names((await ask(adminLead, '{ _table(name: "project_members") }'))._table as Row[], 'user_id')).toEqual(['hank']);
    expect(names((await ask(adminLead, '{ _table(name: "labels", filter: {name: {_in: ["urgent", "later", "secret"]}}) }'))._table as Row[])).toEqual(['secret']);
    expect((await run(ann, '{ _table(name: "tasks") }')).errors?.[0]?.message).toMatch(/gql-admin/);
  });

  maybe('auto-filter from a claim, bypassed by its role but never past the tenant', async () => {
    expect(names(await page(ann, '{ project_members { data { user_id } } }', 'project_members'), 'user_id')).toEqual(['alice']);
    expect(names(await page(lead, '{ project_members { data { user_id } } }', 'project_members'), 'user_id')).toEqual(['alice', 'bob']);
    expect(names(await page(gus, '{ project_members { data { user_id } } }', 'project_members'), 'user_id')).toEqual(['hank']);
    const projects = await page(ann, '{ projects(filter: {id: {_eq: 1}}) { data { project_members { user_id } } } }', 'projects');
    expect(names(projects[0]?.project_members as Row[], 'user_id')).toEqual(['alice']);
  });

  maybe('a user without the tenant claim is refused by every path, not served unfiltered', async () => {
    for (const query of [
      '{ tasks { data { id } } }',
      '{ tenants { data { id tasks { id } } } }',
      '{ projects(filter: {tasks: {id: {_gt: 0}}}) { data { id } } }',
      '{ tenants(filter: {tasks: {id: {_gt: 0}}}) { data { id } } }',
      '{ tasksAggregate { _count } }',
      '{ _table(name: "tasks") }',
      'mutation { tasks(insert: {project_id: 1, title: "x"}) }',
      'mutation { tasks(update: {id: 1, title: "x"}) }',
      'mutation { tasks(delete: {id: 1}) }',
      'mutation { tasks_batch(actions: [{update: {id: 1, title: "x"}}]) }',
      'mutation { tasks(updateWhere: {set: {title: "x"}, where: {id: {_gt: 0}}}) }',
    ]) {
      const result = await run(nobody, query);
      expect(result.errors?.[0]?.message, query).toMatch(/tenant/);
      expect(JSON.stringify(result.data ?? null), query).not.toMatch(/"id":\s*[1-9]|Design fins/);
    }
  });

  maybe('a claim in another JSON shape: a string id reads the same tenant, a list, an object, an empty or ill-shaped value is refused', async () => {
    const asText = {...ann, claims: {sub: 'alice', tenant_id: '1'}};
    expect(ids(await page(asText, '{ tasks { data { id } } }', 'tasks'))).toEqual([1, 2, 4, planted]);
    for (const claim of [[1, 2], {id: 2}, null, '', '1abc', true]) {
      const odd = {...ann, claims: {sub: 'alice', tenant_id: claim}};
      const result = await run(odd, '{ tasks { data { id } } }');
      expect(result.errors?.[0]?.message, JSON.stringify(claim)).toMatch(/tenant/);
      expect((await run(odd, '{ tenants { data { tasks { id } } } }')).errors?.[0]?.message, JSON.stringify(claim)).toMatch(/tenant/);
    }
  });

  maybe('mutations: the other tenant’s rows are out of reach of every kind, batch and updateWhere', async () => {
    const before = await tasksTable();
    const labelsBefore = await db('labels').orderBy('id');
    const none = async (query: string, field: string) => {
      const result = await run(gus, query);
      expect(result.errors, query).toBeUndefined();
      expect(Number(result.data?.[field]), query).toBe(0);
    };
    await none('mutation { tasks(update: {id: 1, title: "x"}) }', 'tasks');
    await none('mutation { tasks(delete: {id: 1}) }', 'tasks');
    await none('mutation { tasks(upsert: {id: 1, project_id: 1, title: "x"}) }', 'tasks');
    await none('mutation { tasks(update: {id: 6, title: "x"}) }', 'tasks');
    await none('mutation { tasks_batch(actions: [{update: {id: 1, title: "x"}}, {delete: {id: 2}}, {update: {id: 4, title: "y"}}]) }', 'tasks_batch');
    await none('mutation { tasks(updateWhere: {set: {title: "x"}, where: {id: {_in: [1, 2, 3, 4]}}}) }', 'tasks');
    await none('mutation { tasks(updateWhere: {set: {title: "x"}, where: {projects: {name: {_eq: "Rockets"}}}}) }', 'tasks');
    await none('mutation { labels(delete: {id: 1}) }', 'labels');
    await none('mutation { labels_batch(actions: [{update: {id: 1, name: "x"}}, {delete: {id: 2}}]) }', 'labels_batch');
    // Nor can a row be written into, or moved to, the other tenant; nor a deleted row brought back.
    for (const query of [
      'mutation { tasks(insert: {tenant_id: 1, project_id: 1, title: "x"}) }',
      'mutation { tasks(upsert: {id: 7, tenant_id: 1, project_id: 3, title: "x"}) }',
      'mutation { tasks(update: {id: 7, tenant_id: 1}) }',
      'mutation { tasks(updateWhere: {set: {tenant_id: 1}, where: {id: {_eq: 7}}}) }',
      'mutation { tasks_batch(actions: [{update: {id: 7, tenant_id: 1}}]) }',
    ]) {
      expect((await run(gus, query)).errors?.[0]?.message, query).toMatch(/pinned/);
    }
    // The soft-delete columns belong to the service: no input type carries them.
    for (const query of ['mutation { tasks(update: {id: 6, deleted_at: null}) }', 'mutation { tasks(updateWhere: {set: {deleted_by: null}, where: {id: {_eq: 6}}}) }']) {
      expect((await run(ann, query)).errors?.[0]?.message, query).toMatch(/Field "deleted_(at|by)" is not defined by type "(Update|UpdateSet)_tasks"/);
    }
    await none('mutation { tasks(update: {id: 6, title: "back"}) }', 'tasks');
    expect(await tasksTable()).toEqual(before);
    expect(await db('labels').orderBy('id')).toEqual(labelsBefore);
    // The auto-filter holds on writes too: Alice cannot touch Bob's membership; the lead can.
    expect(Number((await ask(ann, 'mutation { project_members(update: {project_id: 1, user_id: "bob", role: "owner"}) }')).project_members)).toBe(0);
    expect(await db('project_members').where({user_id: 'bob'}).first('role')).toEqual({role: 'member'});
  });

  maybe('the own writes land in the own tenant, audited; a delete is a stamped soft delete, gone from every read', async () => {
    const created = await ask(gus, 'mutation { tasks(insert: {project_id: 3, title: "Fresh"}) }');
    const fresh = await db('tasks')
      .where({id: Number(created.tasks)})
      .first();
    expect(fresh).toMatchObject({tenant_id: 2, title: 'Fresh', created_by: 'hank', updated_by: 'hank', deleted_at: null});
    expect(fresh.created_on).not.toBeNull();
    expect(Number((await ask(ann, 'mutation { tasks(updateWhere: {set: {done: true}, where: {title: {_in: ["Buy fuel", "Fresh", "World plan"]}}}) }')).tasks)).toBe(1);
    expect(await db('tasks').where({id: 2}).first('done', 'updated_by')).toMatchObject({updated_by: 'alice'});

    expect(Number((await ask(ann, 'mutation { tasks(delete: {id: 2}) }')).tasks)).toBe(1);
    const deleted = await db('tasks').where({id: 2}).first();
    expect(deleted).toMatchObject({title: 'Buy fuel', deleted_by: 'alice'});
    expect(deleted.deleted_at).not.toBeNull();
    // Gone from the list, the nested collection, the many-to-many, the aggregate and _table.
    expect(ids(await page(ann, '{ tasks { data { id } } }', 'tasks'))).toEqual([1, 4, planted]);
    const rockets = await page(ann, '{ projects(filter: {id: {_eq: 1}}) { data { tasks { id } } } }', 'projects');
    expect(ids(rockets[0]?.tasks as Row[])).toEqual([1]);
    const later = await page(ann, '{ labels(filter: {name: {_eq: "later"}}) { data { tasks { id } } } }', 'labels');
    expect(ids(later[0]?.tasks as Row[])).toEqual([4]);
    expect((await ask(ann, '{ tasksAggregate { _count } }')).tasksAggregate).toEqual([{_count: 3}]);
    const junction = await page(ann, '{ task_labels(filter: {task_id: {_eq: 2}}) { data { label_id tasks { id } } } }', 'task_labels');
    expect(junction.map((link) => link.tasks)).toEqual([null, null]);
    // A second delete, and an update of the deleted row, find nothing.
    expect(Number((await ask(ann, 'mutation { tasks(delete: {id: 2}) }')).tasks)).toBe(0);
    expect(Number((await ask(ann, 'mutation { tasks(update: {id: 2, title: "back"}) }')).tasks)).toBe(0);
    // A batch of the own rows soft-deletes both (two actions: the set-based path at bulk-batch-threshold 2).
    expect(Number((await ask(gus, `mutation { tasks_batch(actions: [{delete: {id: 5}}, {delete: {id: ${Number(created.tasks)}}}]) }`)).tasks_batch)).toBe(2);
    expect(
      await db('tasks')
        .whereIn('id', [5, Number(created.tasks)])
        .pluck('deleted_by'),
    ).toEqual(['hank', 'hank']);
    expect(ids(await page(gus, '{ tasks { data { id } } }', 'tasks'))).toEqual([7]);
  });
});
