import type React from 'react';
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
}
