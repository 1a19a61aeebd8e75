import {existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterEach, describe, expect, it} from 'vitest';
import {HISTORY_LIMIT, loadHistory, saveHistory, withEntry, type HistoryEntry} from '../../../../source/tui/panes/graphql/history.js';
import {parseVariables} from '../../../../source/tui/panes/graphql/variables.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, {recursive: true, force: true});
});
function home(): string {
  const dir = mkdtempSync(join(tmpdir(), 'wb-gqlhist-'));
  dirs.push(dir);
  return dir;
}
const entry = (query: string, variables = ''): HistoryEntry => ({query, variables, at: '2026-11-02T10:00:00.000Z'});

describe('the query history (WORKBENCH_HOME/gql-history.json)', () => {
  it('keeps queries newest first across restarts; a query run again moves up instead of repeating', () => {
    const path = join(home(), 'nested', 'gql-history.json');
    expect(loadHistory(path)).toEqual({entries: []});
    let entries = withEntry([], entry('{ album { total } }'));
    entries = withEntry(entries, entry('{ artist { total } }', '{"a": 1}'));
    entries = withEntry(entries, entry('{ album { total } }'));
    saveHistory(entries, path);
    expect(loadHistory(path).entries.map((item) => item.query)).toEqual(['{ album { total } }', '{ artist { total } }']);
    expect(loadHistory(path).entries[1]!.variables).toBe('{"a": 1}');
    // Written through a temp name and a rename: nothing else is left in the folder; the user's alone.
    expect(readdirSync(join(path, '..'))).toEqual(['gql-history.json']);
    expect(readFileSync(path).length > 0).toBe(true);
  });

  it('is bounded: the oldest drop off', () => {
    let entries: HistoryEntry[] = [];
    for (let index = 0; index < HISTORY_LIMIT + 25; index++) entries = withEntry(entries, entry(`{ q${index} }`));
    expect(entries).toHaveLength(HISTORY_LIMIT);
    expect(entries[0]!.query).toBe(`{ q${HISTORY_LIMIT + 24} }`);
  });

  it('survives a corrupt file: a message, an empty history, the file kept aside, and the next save starts a new one', () => {
    const dir = home();
    const path = join(dir, 'gql-history.json');
    writeFileSync(path, '{"entries": [{"query": "{ album');
    const loaded = loadHistory(path);
    expect(loaded.entries).toEqual([]);
    expect(loaded.problem).toMatch(/query history .*gql-history\.json is unreadable \(.*\): starting a new one; the file was kept as .*gql-history\.json\.bad/);
    expect(readFileSync(`${path}.bad`, 'utf8')).toContain('{ album');
    expect(existsSync(path)).toBe(false);
    saveHistory([entry('{ x }')], path);
    expect(loadHistory(path)).toEqual({entries: [entry('{ x }')]});
    // A file of the wrong shape too, and entries of the wrong shape are dropped.
    writeFileSync(path, JSON.stringify({entries: [entry('{ ok }'), {query: 3}, 'nope']}));
    expect(loadHistory(path)).toEqual({entries: [entry('{ ok }')]});
    writeFileSync(path, '[]');
    expect(loadHistory(path).problem).toContain('no "entries" list');
  });
});

describe('the variables box', () => {
  it('is empty (no variables) or a JSON object', () => {
    expect(parseVariables('  \n')).toBeUndefined();
    expect(parseVariables('{"id": 3, "title": "x"}')).toEqual({id: 3, title: 'x'});
  });

  it('says clearly what is wrong, with the line and column', () => {
    expect(() => parseVariables('{\n  "id": 3,\n}')).toThrow(/^variables are not valid JSON: .+ \(line 3, column 1\)$/);
    expect(() => parseVariables('{id: 3}')).toThrow(/variables are not valid JSON: .*\(line 1, column 2\)/);
    expect(() => parseVariables('[1, 2]')).toThrow('variables must be a JSON object, like {"id": 1} (got an array)');
    expect(() => parseVariables('3')).toThrow('(got number)');
    expect(() => parseVariables('null')).toThrow('(got null)');
  });
});
