import type React from 'react';
import type {Command} from '../key/keyBindings.js';
import type {TuiBackend} from '../backend.js';

/** One line of the help overlay: a command's keys and what they do in this pane. */
export interface KeyHelp {
  command: Command;
  description: string;
}

export interface PaneProps {
  backend: TuiBackend;
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
