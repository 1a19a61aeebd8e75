import type React from 'react';
import type {Snapshot} from '../contexts/SnapshotContext.js';
import type {KeyScope} from '../key/keyTable.js';

/** A pane reaches the rest of workbench through usePorts(), not its props. */
export interface PaneProps {
  /** Only the focused pane reacts to keys. */
  focused: boolean;
  /** Inner size the pane may draw in, in cells. */
  width: number;
  height: number;
  /** Small terminal: one pane at a time, no side-by-side parts. */
  compact: boolean;
}

/** A pane of the shell: adding one is a new file exporting this, plus a line in registry.ts. */
export interface PaneDefinition {
  /** Also the pane's scope in key/keyTable.ts: its keys, help and key lines are those rows. */
  id: Exclude<KeyScope, 'global'>;
  title: string;
  Component: React.FC<PaneProps>;
  /** How many items the pane lists, shown in its title as `Incidents (31)`; undefined while unknown. */
  count?: (snapshot: Snapshot) => number | undefined;
}

/** The title a pane's frame and tab show: `Incidents (31)` once the count is known. */
export function paneTitle(pane: PaneDefinition, snapshot: Snapshot): string {
  const count = pane.count?.(snapshot);
  return count === undefined ? pane.title : `${pane.title} (${count})`;
}
