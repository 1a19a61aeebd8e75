import {createContext, useContext} from 'react';

export interface UIActions {
  focusPane(id: string): void;
  focusNextPane(): void;
  focusPreviousPane(): void;
  openHelp(): void;
  closeHelp(): void;
  quit(): void;
  /** The focused pane's key hints for the status bar (its mode's keys); undefined: the defaults. */
  setHints(hints: string[] | undefined): void;
}

export const UIActionsContext = createContext<UIActions | undefined>(undefined);

export function useUIActions(): UIActions {
  const actions = useContext(UIActionsContext);
  if (!actions) throw new Error('useUIActions needs the App around it');
  return actions;
}
