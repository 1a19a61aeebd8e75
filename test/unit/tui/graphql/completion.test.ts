import {buildSchema} from 'graphql';
import {describe, expect, it} from 'vitest';
import {completionEdit, completionsAt} from '../../../../source/tui/panes/graphql/completion.js';
import {editorFromText, editorReducer, editorText, type EditorState} from '../../../../source/tui/panes/graphql/editorModel.js';

// A schema of the service's shape (per table `<t>(limit, offset, filter)` → {data, total}), built from SDL:
// completion is graphql-language-service over whatever schema the port hands it.
const schema = buildSchema(`
  type Query { album(limit: Int, offset: Int): AlbumPage  artist(limit: Int): ArtistPage  albumAggregate: Int }
  type AlbumPage { data: [Album]  total: Int  offset: Int  limit: Int }
  type ArtistPage { data: [Artist]  total: Int }
  type Album { AlbumId: Int  Title: String  ArtistId: Int  artist: Artist }
  type Artist { ArtistId: Int  Name: String  albums: AlbumPage }
`);

/** The text with `|` marking the cursor. */
function at(marked: string): EditorState {
  const index = marked.indexOf('|');
  const text = marked.replace('|', '');
  const before = text.slice(0, index).split('\n');
  return {...editorFromText(text), row: before.length - 1, col: before[before.length - 1]!.length};
}

const labels = (marked: string) => completionsAt(schema, at(marked)).map((completion) => completion.label);

describe('completion of field names from the schema at the cursor', () => {
  it('offers the root fields at the top of a query, those starting with what is typed first', () => {
    expect(labels('{ |')).toEqual(expect.arrayContaining(['album', 'artist', 'albumAggregate']));
    const typed = labels('{ alb|');
    expect(typed.slice(0, 2)).toEqual(['album', 'albumAggregate']);
    expect(typed).not.toContain('Title');
  });

  it('offers the fields of the type the cursor is in, however deep, on any line', () => {
    expect(labels('{ album { |')).toEqual(['data', 'total', 'offset', 'limit', '__typename']);
    expect(labels('{\n  album(limit: 5) {\n    data {\n      |\n    }\n  }\n}')).toEqual(['AlbumId', 'Title', 'ArtistId', 'artist', '__typename']);
    expect(labels('{ artist { data { albums { data { Ti| } } } } }')[0]).toBe('Title');
    expect(labels('{ artist { data { N| } } }')[0]).toBe('Name');
  });

  it('gives each field its type as detail', () => {
    const [data] = completionsAt(schema, at('{ album { da|'));
    expect(data).toEqual({label: 'data', detail: '[Album]'});
  });

  it('replaces the whole word the cursor is in, not only what is left of it', () => {
    const state = at('{ album { data { Ti|xx } } }');
    const [first] = completionsAt(schema, state);
    const next = editorReducer(state, completionEdit(state, first!));
    expect(editorText(next)).toBe('{ album { data { Title } } }');
    expect(next.col).toBe('{ album { data { Title'.length);
  });

  it('offers argument names inside parentheses', () => {
    expect(labels('{ album(|')).toEqual(expect.arrayContaining(['limit', 'offset']));
  });
});
