// loadModel on the live Chinook database of each provider: introspection, rules and model
// together, and the documented names of two links to one table (Employee ← ReportsTo, SupportRepId).
import knex from 'knex';
import {afterAll, describe, expect, it} from 'vitest';
import {loadModel} from '../../../source/gql/load-model.js';
import {gqlDatabases, snakeCase} from '../../helpers/gql-databases.js';

const databases = await gqlDatabases();
const drops: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const drop of drops) await drop();
});

describe.each(databases.map((database) => [database.kind, database] as const))('loadModel on %s Chinook', (kind, database) => {
  it.skipIf(database.unavailable !== null)('builds every table with unique link names and no problem; rule problems come back together', async () => {
    const fixture = await database.createChinook();
    drops.push(fixture.drop);
    const db = knex(fixture.knexConfig);
    try {
      const name = (text: string) => (kind === 'postgres' ? snakeCase(text) : text);
      const {model, problems} = await loadModel(db, {provider: kind, metadata: []});
      expect(problems).toEqual([]);
      expect(model.byName.size).toBe(11);
      const employee = model.byName.get(name('Employee'))!;
      const linkNames = employee.links.map((link) => link.name).sort();
      expect(linkNames).toEqual([name('Customer'), `${name('Employee')}_by_${name('ReportsTo')}`, `${name('Employee')}_via_${name('ReportsTo')}`].sort());
      expect(model.byName.get(name('Customer'))!.links.map((link) => link.name)).toContain(name('Employee'));

      const withRules = await loadModel(db, {
        provider: kind,
        metadata: [`*.${name('Playlist')} { many-to-many: ${name('Track')}:${name('PlaylistTrack')} }`, ':root { max-query-rows: 0 }', `*.${name('Track')} { label: nope`],
      });
      expect(withRules.problems.map((problem) => problem.ruleIndex)).toEqual([2, 1]);
      const playlist = withRules.model.byName.get(name('Playlist'))!;
      expect(playlist.links.find((link) => link.origin === 'many-to-many')).toMatchObject({
        kind: 'many',
        via: {junction: expect.stringMatching(new RegExp(`\\.${name('PlaylistTrack')}$`))},
      });
    } finally {
      await db.destroy();
    }
  });
});
