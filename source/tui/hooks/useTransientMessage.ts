import {useEffect, useState} from 'react';
import type {PaneMessage} from '../components/MessageLine.js';

/** The outcome line of the last action; it fades after `ttlMs` so the pane does not fill with old news. */
export function useTransientMessage(ttlMs = 5000): [PaneMessage | undefined, (message: PaneMessage | undefined) => void] {
  const [message, setMessage] = useState<PaneMessage>();
  useEffect(() => {
    if (!message) return;
    const timer = setTimeout(() => setMessage(undefined), ttlMs);
    return () => clearTimeout(timer);
  }, [message, ttlMs]);
  return [message, setMessage];
}
