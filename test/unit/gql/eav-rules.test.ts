// The EAV keys at model load: every failure named with its rule, and what a valid model carries
// (the parent's attributes config, the meta table hidden, no link reaching it).
import {describe, expect, it} from 'vitest';
import {modelFrom} from '../../../source/gql/load-model.js';
import type {DbModel} from '../../../source/gql/types.js';
import {chinook, column, table} from './chinook-db-model.js';

/** Chinook with `TrackMeta(Id, TrackId → Track, Name, Value)`, a numeric-valued `AlbumMeta`, and a keyless `Pair` table. */
function db(): DbModel {
  const model = chinook();
  const meta = (name: string, fk: string, parent: string, value = column('Value')) =>
    table(
      name,
      [column('Id', 'int', {nullable: false, isIdentity: true}), column(fk, 'int'), column('Name'), value, column('Flag', 'boolean')],
      ['Id'],
      [{columns: [fk], refTable: parent, refColumns: [`${parent}Id`]}],
    );
  model.tables.push(meta('TrackMeta', 'TrackId', 'Track'), meta('AlbumMeta', 'AlbumId', 'Album', column('Value', 'decimal')));
  model.tables.push(table('Pair', [column('A', 'int'), column('B', 'int')], ['A', 'B']));
  model.tables.push(table('PairMeta', [column('Id', 'int'), column('A', 'int'), column('Name'), column('Value')], ['Id']));
  return model;
}

const TRACK_META = 'main.TrackMeta { eav-parent: Track; eav-fk: TrackId; eav-key: Name; eav-value: Value }';

function problems(model: DbModel, ...rules: string[]): string {
  const result = modelFrom(model, rules);
  expect(result.problems.length).toBeGreaterThan(0);
  return result.problems.map((problem) => `${problem.message} [${problem.rule ?? ''}]`).join('\n');
}

describe('EAV keys at model load', () => {
  it('a valid meta table: the parent carries it, the meta table is hidden and nothing links to it', () => {
    const {model, problems: found} = modelFrom(db(), [TRACK_META, 'main.AlbumMeta { eav-parent: main.Album; eav-fk: albumid; eav-key: name; eav-value: value }']);
    expect(found).toEqual([]);
    expect(model.byKey.get('main.Track')?.eav).toEqual({table: 'main.TrackMeta', fk: 'TrackId', key: 'Name', value: 'Value', valueKind: 'string'});
    // Column names match case-insensitively and come out as the database spells them; a decimal value keeps its kind.
    expect(model.byKey.get('main.Album')?.eav).toEqual({table: 'main.AlbumMeta', fk: 'AlbumId', key: 'Name', value: 'Value', valueKind: 'decimal'});
    expect(model.byKey.get('main.TrackMeta')?.hidden).toBe(true);
    expect(model.byName.has('TrackMeta')).toBe(false);
    expect(model.byKey.get('main.Track')?.links.map((link) => link.target)).not.toContain('main.TrackMeta');
    expect(model.byKey.get('main.Artist')?.eav).toBeUndefined();
  });

  it('any of the four keys missing when one is present, and an unknown eav-* key', () => {
    const partial = problems(db(), 'main.TrackMeta { eav-parent: Track; eav-key: Name }');
    expect(partial).toMatch(
      /main\.TrackMeta: an EAV meta table needs all four of eav-parent, eav-fk, eav-key, eav-value; eav-fk, eav-value are missing or empty \[main\.TrackMeta \{ eav-parent: Track; eav-key: Name \}\]/,
    );
    expect(problems(db(), 'main.TrackMeta { eav-parent: Track; eav-fk: TrackId; eav-key: Name; eav-value: }')).toMatch(/eav-value is missing or empty/);
    const unknown = problems(db(), TRACK_META, 'main.TrackMeta { eav-values: Value }');
    expect(unknown).toMatch(/main\.TrackMeta: eav-values is not an EAV key: the spec's are eav-parent, eav-fk, eav-key, eav-value \[main\.TrackMeta \{ eav-values: Value \}\]/);
    expect(problems(db(), ':root { eav-parent: Track }', 'main.Track.Name { eav-key: Name }')).toMatch(
      /:root: eav-parent: "Track": applies to a table[\s\S]*main\.Track\.Name: eav-key: "Name": applies to a table/,
    );
    // A lone unknown key is reported too, even with none of the four.
    expect(problems(db(), 'main.Track { eav-parnet: Album }')).toMatch(/eav-parnet is not an EAV key/);
  });

  it('eav-parent naming a missing table, or the meta table itself', () => {
    expect(problems(db(), 'main.TrackMeta { eav-parent: Tracks; eav-fk: TrackId; eav-key: Name; eav-value: Value }')).toMatch(
      /main\.TrackMeta: eav-parent: "Tracks": no such table in schema main/,
    );
    expect(problems(db(), 'main.TrackMeta { eav-parent: TrackMeta; eav-fk: TrackId; eav-key: Name; eav-value: Value }')).toMatch(
      /eav-parent: "TrackMeta": names the meta table itself/,
    );
  });

  it('eav-fk, eav-key or eav-value naming a missing column', () => {
    const found = problems(db(), 'main.TrackMeta { eav-parent: Track; eav-fk: Track; eav-key: Key; eav-value: Val }');
    expect(found).toMatch(/eav-fk: "Track": TrackMeta has no such column/);
    expect(found).toMatch(/eav-key: "Key": TrackMeta has no such column/);
    expect(found).toMatch(/eav-value: "Val": TrackMeta has no such column/);
  });

  it('a key column that is not text, a value column of a kind attributes cannot carry', () => {
    expect(problems(db(), 'main.TrackMeta { eav-parent: Track; eav-fk: TrackId; eav-key: Id; eav-value: Value }')).toMatch(
      /eav-key: "Id": the attribute-name column must be text; Id is integer/,
    );
    expect(problems(db(), 'main.TrackMeta { eav-parent: Track; eav-fk: TrackId; eav-key: Name; eav-value: Flag }')).toMatch(
      /eav-value: "Flag": the attribute-value column must be text or a number; Flag is boolean \(boolean\)/,
    );
  });

  it('a parent without a one-column primary key, and a parent with two meta tables', () => {
    expect(problems(db(), 'main.PairMeta { eav-parent: Pair; eav-fk: A; eav-key: Name; eav-value: Value }')).toMatch(
      /eav-parent: "Pair": main\.Pair needs a primary key of one column for its attributes to hang on \(it has 2 columns\)/,
    );
    const twice = problems(db(), TRACK_META, 'main.AlbumMeta { eav-parent: Track; eav-fk: AlbumId; eav-key: Name; eav-value: Value }');
    expect(twice).toMatch(/main\.AlbumMeta: eav-parent: "Track": main\.Track already has the EAV meta table main\.TrackMeta: a parent takes one/);
  });

  it('a parent whose columns take the EAV field names', () => {
    const model = db();
    model.tables.find((candidate) => candidate.name === 'Track')!.columns.push(column('_meta'));
    expect(problems(model, TRACK_META)).toMatch(/main\.Track has column\(s\) _meta, which the EAV fields _meta, _attributes, _attr would hide/);
  });

  it('every problem at once, the rest of the model still built', () => {
    const {model, problems: found} = modelFrom(db(), [
      'main.TrackMeta { eav-parent: Nope; eav-fk: TrackId; eav-key: Name; eav-value: Value }',
      'main.AlbumMeta { eav-fk: AlbumId }',
    ]);
    expect(found.map((problem) => problem.target)).toEqual(['main.TrackMeta', 'main.AlbumMeta']);
    expect(model.byKey.get('main.Track')?.eav).toBeUndefined();
    expect(model.byKey.get('main.TrackMeta')?.hidden).toBe(false);
  });
});
