// A DbModel of part of Chinook, as introspection hands it over, for model tests that need no database.
import type {ColumnKind, DbColumn, DbForeignKey, DbModel, DbTable} from '../../../source/gql/types.js';

export function column(name: string, kind: ColumnKind = 'string', extra: Partial<DbColumn> = {}): DbColumn {
  const dataType = {int: 'integer', string: 'nvarchar', datetime: 'datetime', decimal: 'numeric'}[kind as string] ?? kind;
  return {name, dataType, kind, nullable: true, isIdentity: false, hasDefault: false, ...extra};
}

export function table(
  name: string,
  columns: DbColumn[],
  primaryKey: string[],
  foreignKeys: Array<Omit<DbForeignKey, 'name' | 'refSchema'> & {refSchema?: string}> = [],
  schema = 'main',
): DbTable {
  return {
    schema,
    name,
    columns,
    primaryKey,
    foreignKeys: foreignKeys.map((fk, index) => ({name: `fk_${name}_${index}`, refSchema: schema, ...fk})),
    isView: false,
  };
}

const id = (name: string) => column(name, 'int', {nullable: false, isIdentity: true});

export function chinook(): DbModel {
  return {
    provider: 'sqlite',
    defaultSchema: 'main',
    procedures: [],
    tables: [
      table('Artist', [id('ArtistId'), column('Name')], ['ArtistId']),
      table('Album', [id('AlbumId'), column('Title'), column('ArtistId', 'int')], ['AlbumId'], [{columns: ['ArtistId'], refTable: 'Artist', refColumns: ['ArtistId']}]),
      table('Genre', [id('GenreId'), column('Name')], ['GenreId']),
      table(
        'Track',
        [id('TrackId'), column('Name'), column('AlbumId', 'int'), column('GenreId', 'int'), column('UnitPrice', 'decimal')],
        ['TrackId'],
        [
          {columns: ['AlbumId'], refTable: 'Album', refColumns: ['AlbumId']},
          {columns: ['GenreId'], refTable: 'Genre', refColumns: ['GenreId']},
        ],
      ),
      table(
        'Employee',
        [id('EmployeeId'), column('LastName'), column('ReportsTo', 'int')],
        ['EmployeeId'],
        [{columns: ['ReportsTo'], refTable: 'Employee', refColumns: ['EmployeeId']}],
      ),
      table(
        'Customer',
        [id('CustomerId'), column('FirstName'), column('SupportRepId', 'int'), column('TenantId', 'int'), column('DeletedAt', 'datetime'), column('DeletedBy')],
        ['CustomerId'],
        [{columns: ['SupportRepId'], refTable: 'Employee', refColumns: ['EmployeeId']}],
      ),
      table('Playlist', [id('PlaylistId'), column('Name')], ['PlaylistId']),
      table(
        'PlaylistTrack',
        [column('PlaylistId', 'int'), column('TrackId', 'int')],
        ['PlaylistId', 'TrackId'],
        [
          {columns: ['PlaylistId'], refTable: 'Playlist', refColumns: ['PlaylistId']},
          {columns: ['TrackId'], refTable: 'Track', refColumns: ['TrackId']},
        ],
      ),
    ],
  };
}
