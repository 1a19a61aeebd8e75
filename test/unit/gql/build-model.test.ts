// The model served, from a DbModel without rules: names as is, links from foreign keys both ways
// with unique names, and the spec's limit and batch defaults.
import {describe, expect, it} from 'vitest';
import {buildModel} from '../../../source/gql/model/build-model.js';
import type {GqlModel} from '../../../source/gql/types.js';
import {chinook, column, table} from './chinook-db-model.js';

function links(model: GqlModel, key: string) {
  return Object.fromEntries(model.byKey.get(key)!.links.map((link) => [link.name, `${link.kind} ${link.target} (${link.sourceColumns} → ${link.targetColumns})`]));
}

describe('buildModel without rules', () => {
  const {model, problems} = buildModel(chinook());

  it('reports no problem', () => expect(problems).toEqual([]));

  it('names tables and columns as the database does', () => {
    expect([...model.byName.keys()]).toEqual(['Artist', 'Album', 'Genre', 'Track', 'Employee', 'Customer', 'Playlist', 'PlaylistTrack']);
    expect(model.byKey.get('main.Track')!.columns.map((c) => c.name)).toEqual(['TrackId', 'Name', 'AlbumId', 'GenreId', 'UnitPrice']);
    expect(model.byKey.get('main.Track')!.columns[0]).toMatchObject({isPrimaryKey: true, isIdentity: true, hidden: false, readOnly: false});
  });

  it('links each foreign key both ways: single to the parent, many to the children', () => {
    expect(links(model, 'main.Album')).toEqual({Artist: 'single main.Artist (ArtistId → ArtistId)', Track: 'many main.Track (AlbumId → AlbumId)'});
    expect(links(model, 'main.Artist')).toEqual({Album: 'many main.Album (ArtistId → ArtistId)'});
    expect(links(model, 'main.PlaylistTrack')).toEqual({Playlist: 'single main.Playlist (PlaylistId → PlaylistId)', Track: 'single main.Track (TrackId → TrackId)'});
    expect(model.byKey.get('main.Album')!.links[0].origin).toBe('foreign-key');
  });

  it('gives two links to one table names that say which key they follow', () => {
    expect(links(model, 'main.Employee')).toEqual({
      Employee_by_ReportsTo: 'single main.Employee (ReportsTo → EmployeeId)',
      Employee_via_ReportsTo: 'many main.Employee (EmployeeId → ReportsTo)',
      Customer: 'many main.Customer (EmployeeId → SupportRepId)',
    });
    expect(links(model, 'main.Customer')).toEqual({Employee: 'single main.Employee (SupportRepId → EmployeeId)'});
  });

  it('renames a link whose name is a column', () => {
    const db = chinook();
    db.tables.find((t) => t.name === 'Album')!.columns.push(column('Artist'));
    const built = buildModel(db).model;
    expect(Object.keys(links(built, 'main.Album'))).toEqual(['Artist_by_ArtistId', 'Track']);
  });

  it('applies the spec defaults for limits, batches, roles and presentation', () => {
    expect(model).toMatchObject({
      maxQueryRows: 10000,
      defaultLimit: 100,
      tenantContextKey: 'tenant_id',
      rawSql: {enabled: false, role: 'gql-raw-sql'},
      genericTable: {enabled: false, role: 'gql-admin'},
      schemaDisplay: 'flat',
      schemaExcluded: [],
    });
    expect(model.byKey.get('main.Track')).toMatchObject({
      deleteType: 'hard',
      bulkBatchThreshold: 50,
      batchDuplicatePolicy: 'last-wins',
      filteredUpdate: false,
      filteredUpdateMaxAffected: 100,
      autoFilters: [],
      hidden: false,
    });
  });

  it('makes names GraphQL can spell', () => {
    const db = chinook();
    db.tables.push(table('Order Details', [column('2nd price'), column('__x')], []));
    const built = buildModel(db).model.byName.get('Order_Details')!;
    expect(built.columns.map((c) => c.name)).toEqual(['_2nd_price', '_x']);
    expect(built.dbName).toBe('Order Details');
  });

  it('infers a link from a column named like another table key when no foreign key declares it', () => {
    const db = chinook();
    db.tables.push(table('Review', [column('ReviewId', 'int'), column('AlbumId', 'int')], ['ReviewId']));
    const built = buildModel(db).model;
    expect(built.byKey.get('main.Review')!.links).toEqual([expect.objectContaining({name: 'Album', kind: 'single', target: 'main.Album', origin: 'name-match'})]);
    expect(links(built, 'main.Album')).toHaveProperty('Review');
  });

  it('reports two tables that would share a GraphQL name', () => {
    const db = chinook();
    db.tables.push(table('Artist', [column('Id')], ['Id'], [], 'other'));
    expect(buildModel(db).problems).toEqual([expect.objectContaining({message: expect.stringMatching(/main\.Artist and other\.Artist would both be named Artist/)})]);
  });
});
