import {describe, expect, it} from 'vitest';
import {containerPaths, parentPath, treeRows, treeRowText} from '../../../../source/tui/panes/graphql/resultTree.js';

const data = {
  album: {
    data: [
      {AlbumId: 1, Title: 'For Those About To Rock'},
      {AlbumId: 2, Title: 'Balls to the \u001b]0;pwned\u0007Wall', cover: null},
    ],
    total: 347,
  },
};
const text = (closed: Iterable<string> = []) => treeRows(data, new Set(closed), 'data').map(treeRowText);

describe('the result tree', () => {
  it('shows every object and list open, scalars as JSON, indented by depth', () => {
    expect(text()).toEqual([
      '▾ data {1}',
      '  ▾ album {2}',
      '    ▾ data [2]',
      '      ▾ 0 {2}',
      '          AlbumId: 1',
      '          Title: "For Those About To Rock"',
      '      ▾ 1 {3}',
      '          AlbumId: 2',
      '          Title: "Balls to the Wall"',
      '          cover: null',
      '      total: 347',
    ]);
  });

  it('hides what a closed object or list holds, and shows it again when opened', () => {
    expect(text(['data.album.data.0'])).toEqual([
      '▾ data {1}',
      '  ▾ album {2}',
      '    ▾ data [2]',
      '      ▸ 0 {2}',
      '      ▾ 1 {3}',
      '          AlbumId: 2',
      '          Title: "Balls to the Wall"',
      '          cover: null',
      '      total: 347',
    ]);
    expect(text(['data.album.data'])).toEqual(['▾ data {1}', '  ▾ album {2}', '    ▸ data [2]', '      total: 347']);
    expect(text(['data'])).toEqual(['▸ data {1}']);
  });

  it('strips escape sequences and control characters from keys and values (they come from the database)', () => {
    const rows = treeRows({'we\u001b[2Jird': 'a\u0000b\r\nc'}, new Set(), 'data').map(treeRowText);
    expect(rows).toEqual(['▾ data {1}', '    weird: "ab c"']);
    expect(rows.join('')).not.toMatch(/[\u0000-\u001f]/);
  });

  it('knows every container (close all) and each row’s parent (← goes up)', () => {
    expect(containerPaths(data, 'data')).toEqual(['data', 'data.album', 'data.album.data', 'data.album.data.0', 'data.album.data.1']);
    expect(parentPath('data.album.data.1.Title')).toBe('data.album.data.1');
    expect(parentPath('data')).toBeUndefined();
  });
});
