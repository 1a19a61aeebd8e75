import React, {useRef} from 'react';
import {Box, Text} from 'ink';
import {editorWindow, type EditorState} from './editorModel.js';

/**
 * An editor's text in a `rows`×`width` window that follows the cursor (long queries scroll, long
 * lines slide). The cursor is an inverse cell while the box is being edited. The text holds no
 * control characters (the editor model drops them), so it is drawn as typed.
 */
export function TextBox({state, active, rows, width, placeholder}: {state: EditorState; active: boolean; rows: number; width: number; placeholder: string}): React.JSX.Element {
  const window = useRef({top: 0, left: 0});
  // The gutter: one column that says there is more text to the left.
  const textWidth = Math.max(1, width - 1);
  window.current = editorWindow(state, Math.max(1, rows), textWidth, window.current);
  const {top, left} = window.current;
  const empty = state.lines.length === 1 && state.lines[0] === '';
  return (
    <Box width={width} height={rows} flexDirection="column" overflowY="hidden">
      {state.lines.slice(top, top + rows).map((line, offset) => {
        const row = top + offset;
        const shown = line.slice(left, left + textWidth);
        const gutter = left > 0 && line.length > 0 ? '‹' : ' ';
        if (!active || row !== state.row) {
          return (
            <Box key={row} height={1} width={width}>
              <Text wrap="truncate-end">
                <Text dimColor>{gutter}</Text>
                {empty && row === 0 ? <Text dimColor>{placeholder}</Text> : shown}
              </Text>
            </Box>
          );
        }
        const at = state.col - left;
        return (
          <Box key={row} height={1} width={width}>
            <Text wrap="truncate-end">
              <Text dimColor>{gutter}</Text>
              {shown.slice(0, at)}
              <Text inverse>{shown[at] ?? ' '}</Text>
              {shown.slice(at + 1)}
              {empty && <Text dimColor> {placeholder}</Text>}
            </Text>
          </Box>
        );
      })}
    </Box>
  );
}
