import {useEffect} from 'react';
import {useUIActions} from '../contexts/UIActionsContext.js';

/** While the pane is focused, the status bar shows these hints (e.g. `/ search`), for its current mode. */
export function useStatusHints(focused: boolean, hints: string[]): void {
  const {setHints} = useUIActions();
  const joined = hints.join('\u0000');
  useEffect(() => {
    if (!focused) return;
    setHints(joined ? joined.split('\u0000') : []);
    return () => setHints(undefined);
  }, [focused, joined, setHints]);
}
