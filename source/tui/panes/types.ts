import type React from 'react';
import type {Snapshot} from '../contexts/SnapshotContext.js';
import {commandDescription, keyLabel, type Command} from '../key/keyBindings.js';

/** A key in the help overlay: a shared command, or a key only that pane has (`label`, e.g. "z"). */
export type KeyHelp = {command: Command; description?: string} | {label: string; description: string} | {heading: string};

export function keyHelpLabel(help: KeyHelp): string {
  return 'command' in help ? keyLabel(help.command) : 'label' in help ? help.label : '';
}

/** What the key does: the pane's words, else the command's own description. */
export function keyHelpDescription(help: KeyHelp): string {
  return 'command' in help ? (help.description ?? commandDescription(help.command)) : 'label' in help ? help.description : help.heading;
}

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
  id: string;
  title: string;
  keys: KeyHelp[];
  Component: React.FC<PaneProps>;
  /** How many items the pane lists, shown in its title as `Incidents (31)`; undefined while unknown. */
  count?: (snapshot: Snapshot) => number | undefined;
}

/** The title a pane's frame and tab show: `Incidents (31)` once the count is known. */
export function paneTitle(pane: PaneDefinition, snapshot: Snapshot): string {
  const count = pane.count?.(snapshot);
  return count === undefined ? pane.title : `${pane.title} (${count})`;
}
