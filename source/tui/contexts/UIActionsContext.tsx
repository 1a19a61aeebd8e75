import {createContext, useContext} from 'react';

export interface UIActions {
  focusPane(id: string): void;
  focusNextPane(): void;
  focusPreviousPane(): void;
  openHelp(): void;
  closeHelp(): void;
  quit(): void;
}

export const UIActionsContext = createContext<UIActions | undefined>(undefined);

export function useUIActions(): UIActions {
  const actions = useContext(UIActionsContext);
  if (!actions) throw new Error('useUIActions needs the App around it');
  return actions;
}
