import React from 'react';
import {Text} from 'ink';
import type {EditorState} from '../panes/graphql/editorModel.js';

/** A one-line text input's text with its cursor (an inverse cell), inline in the line that holds it. */
export function InputLine({state}: {state: EditorState}): React.JSX.Element {
  const line = state.lines[state.row] ?? '';
  return (
    <>
      {line.slice(0, state.col)}
      <Text inverse>{line[state.col] ?? ' '}</Text>
      {line.slice(state.col + 1)}
    </>
  );
}
