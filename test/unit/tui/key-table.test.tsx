import {readdirSync, readFileSync, statSync} from 'node:fs';
import {join} from 'node:path';
import React from 'react';
import {afterEach, describe, expect, it} from 'vitest';
import {cleanup, render} from 'ink-testing-library';
import {defaultKeyBindings, lineLabel, sameKey, type Command} from '../../../source/tui/key/keyBindings.js';
import {keyLine, keyTable, keyView, rowDescription, rowLabel, type KeyRow, type KeyView} from '../../../source/tui/key/keyTable.js';
import {HelpOverlay} from '../../../source/tui/components/HelpOverlay.js';
import {KeypressProvider} from '../../../source/tui/contexts/KeypressContext.js';
import {panes} from '../../../source/tui/panes/registry.js';
import {stripAnsi} from '../../../source/text/ansi.js';

// The key table (source/tui/key/keyTable.ts) is the one list of keys: these tests hold it to that.

const everywhere = keyView('global', 'everywhere');

/** Two rows whose commands share a key, where neither says it takes the key over. */
function clashes(rows: KeyRow[], others: KeyRow[] = rows): string[] {
  const found: string[] = [];
  for (const row of rows) {
    for (const other of others) {
      if (row === other || row.command === other.command) continue;
      if (row.overrides?.includes(other.command) || other.overrides?.includes(row.command)) continue;
      for (const key of defaultKeyBindings[row.command].keys) {
        if (defaultKeyBindings[other.command].keys.some((binding) => sameKey(key, binding))) found.push(`${row.command} and ${other.command} both on ${key.label}`);
      }
    }
  }
  return found;
}

const where = (view: KeyView) => `${view.scope}/${view.view}`;

describe('the key table', () => {
  afterEach(() => cleanup());

  it('binds no key twice in one view, nor a global key in a pane’s view, unless a row says it overrides the other', () => {
    for (const view of keyTable) {
      expect(clashes(view.rows), where(view)).toEqual([]);
      if (view.scope !== 'global') expect(clashes(view.rows, everywhere.rows), `${where(view)} against the global keys`).toEqual([]);
    }
  });

  it('finds a clash the table does not declare', () => {
    const snooze = keyView('feeds', 'list').rows.find((row) => row.overrides !== undefined)!;
    expect(clashes([{...snooze, overrides: undefined}], everywhere.rows)).toEqual(['feeds.snooze and global.zoom both on z']);
  });

  it('has views for every pane of the registry, and only for those (and the global keys)', () => {
    const scopes = new Set(keyTable.map((view) => view.scope));
    expect([...scopes].sort()).toEqual([...panes.map((pane) => pane.id), 'global'].sort());
    for (const view of keyTable)
      expect(
        keyTable.filter((other) => where(other) === where(view)),
        where(view),
      ).toHaveLength(1);
  });

  it('shows every row of a pane and every global row in that pane’s help overlay', async () => {
    for (const pane of panes) {
      const help = (
        <KeypressProvider>
          <HelpOverlay pane={pane} width={260} height={200} compact={false} onClose={() => {}} />
        </KeypressProvider>
      );
      const app = render(help);
      // ink-testing-library's stdout is 100 columns: wide enough that no description is cut.
      Object.defineProperty(app.stdout, 'columns', {value: 260, configurable: true});
      app.rerender(help);
      await new Promise((resolve) => setImmediate(resolve));
      const lines = stripAnsi(app.lastFrame() ?? '')
        .split('\n')
        .map((line) => line.replace(/^[│\s]+|[│\s]+$/g, '').replace(/\s+/g, ' '));
      expect(lines[1]).toContain(`Keys — ${pane.title}`);
      for (const view of keyTable.filter((candidate) => (candidate.scope === pane.id || candidate.scope === 'global') && candidate.inHelp !== false)) {
        if (view.heading) expect(lines, `${pane.id}: heading of ${where(view)}`).toContain(view.heading);
        for (const row of view.rows) expect(lines, `${pane.id}: ${row.command} of ${where(view)}`).toContain(`${rowLabel(row)} ${rowDescription(row)}`);
      }
      app.unmount();
    }
  });

  it('leaves out of the help only the overlay’s own keys and the daemon-stopped key, both in sight where they work', () => {
    expect(keyTable.filter((view) => view.inHelp === false).map(where)).toEqual(['global/help', 'global/stopped']);
  });

  it('draws each key line from the rows: every hinted row is in its view’s line, in order', () => {
    for (const view of keyTable) {
      const line = keyLine(view.scope, view.view);
      let from = 0;
      for (const row of view.rows.filter((candidate) => candidate.hint !== undefined)) {
        const at = line.indexOf(row.hint!, from);
        expect(at, `${where(view)}: ${row.command} (${row.hint}) in "${line}"`).toBeGreaterThanOrEqual(from);
        expect(line.slice(0, at)).toContain(lineLabel(row.command as Command).split('/')[0]);
        from = at;
      }
    }
    expect(keyLine('chat', 'browse')).toMatch(/^i type · ↑↓ select · enter\/→ open/);
    expect(keyLine('feeds', 'reader')).toMatch(/^↑↓ pgup\/pgdn\/space scroll/);
  });

  it('keeps no key file beside the table: panes match commands, not key names of their own', () => {
    const files = (dir: string): string[] =>
      readdirSync(dir).flatMap((name) => {
        const path = join(dir, name);
        return statSync(path).isDirectory() ? files(path) : /\.tsx?$/.test(name) ? [path] : [];
      });
    const panesSource = files('source/tui/panes');
    // A per-pane key list (feedKeys.ts, gqlKeys.ts, chatKeys.ts, …) next to the one table.
    expect(panesSource.filter((path) => /\/[a-z]+Keys\.ts$/.test(path))).toEqual([]);
    // A pane's handler asking for a printable key by itself bypasses the table (and its help).
    const rawKeys = panesSource.filter((path) => /press\.input === '[^']'/.test(readFileSync(path, 'utf8')) && !/editorModel|LinePrompt/.test(path));
    expect(rawKeys).toEqual([]);
  });

  it('leaves no key line written out by hand in the TUI’s source', () => {
    const files = (dir: string): string[] =>
      readdirSync(dir).flatMap((name) => {
        const path = join(dir, name);
        return statSync(path).isDirectory() ? files(path) : /\.tsx?$/.test(name) ? [path] : [];
      });
    const handWritten = files('source/tui').filter((path) => /KEY_LINE\s*=\s*['"`]/.test(readFileSync(path, 'utf8')));
    expect(handWritten).toEqual([]);
  });
});
