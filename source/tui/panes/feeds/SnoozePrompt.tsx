import React from 'react';
import {Command} from '../../key/keyBindings.js';
import {keyLine} from '../../key/keyTable.js';
import type {EditorState} from '../graphql/editorModel.js';
import {PromptLine} from './LinePrompt.js';

/** `z`: one line asking until when; Enter on nothing means tomorrow 08:00, Esc cancels. */
export function SnoozePrompt({state, width}: {state: EditorState; width: number}): React.JSX.Element {
  return (
    <PromptLine
      label="snooze until:"
      hint={(draft) => `30m, 1h, 2d, an ISO time · ${keyLine('global', 'prompt', {hints: {[Command.INPUT_ACCEPT]: draft.trim() ? 'snooze' : 'tomorrow 08:00'}})}`}
      state={state}
      width={width}
    />
  );
}
