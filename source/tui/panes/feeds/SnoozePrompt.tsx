import React from 'react';
import {LinePrompt} from './LinePrompt.js';

/** `z`: one line asking until when; Enter on nothing means tomorrow 08:00, Esc cancels. */
export function SnoozePrompt({focused, width, onSubmit, onCancel}: {focused: boolean; width: number; onSubmit: (text: string) => void; onCancel: () => void}): React.JSX.Element {
  return (
    <LinePrompt
      label="snooze until:"
      hint={(draft) => `enter: ${draft.trim() ? 'snooze' : 'tomorrow 08:00'} · 30m, 1h, 2d, an ISO time · esc cancel`}
      focused={focused}
      width={width}
      onSubmit={(text) => onSubmit(text || 'tomorrow')}
      onCancel={onCancel}
    />
  );
}
