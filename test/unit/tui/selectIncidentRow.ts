import {expect} from 'vitest';
import type {renderApp} from './renderApp.js';

/** The row under the Incidents pane's cursor (`▸✖` / `▸▲`). */
function selectedRow(app: Awaited<ReturnType<typeof renderApp>>): string {
  return (
    app
      .frame()
      .split('\n')
      .find((line) => /▸[✖▲]/.test(line)) ?? ''
  );
}

/**
 * Moves the Incidents pane's cursor down to the row matching `pattern`, looking at the frame
 * after each key: the list may still be filling or reordering as new alerts arrive, so counting
 * key presses from an earlier snapshot of the inbox can land on another row.
 */
export async function selectIncidentRow(app: Awaited<ReturnType<typeof renderApp>>, pattern: RegExp): Promise<void> {
  for (let step = 0; step < 30 && !pattern.test(selectedRow(app)); step++) await app.press('j');
  expect(selectedRow(app)).toMatch(pattern);
}
