import {createContext, useContext} from 'react';
import type {PaneDefinition} from '../panes/types.js';
import type {TerminalSize} from '../hooks/useTerminalSize.js';

export interface UIState {
  panes: PaneDefinition[];
  focusedPaneId: string;
  helpOpen: boolean;
  size: TerminalSize;
  compact: boolean;
  /** The focused pane fills the screen (`+`/`z`). */
  zoomed: boolean;
}

export const UIStateContext = createContext<UIState | undefined>(undefined);

export function useUIState(): UIState {
  const state = useContext(UIStateContext);
  if (!state) throw new Error('useUIState needs the App around it');
  return state;
}
