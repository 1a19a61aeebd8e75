import React from 'react';
import {Box, Text} from 'ink';
import {useSnapshot} from '../contexts/SnapshotContext.js';
import {paneTitle, type PaneDefinition} from '../panes/types.js';

/** Header row: every pane with its number key, the focused one highlighted, the title on the right. */
export function PaneTabs({panes, focusedPaneId, title, width}: {panes: PaneDefinition[]; focusedPaneId: string; title: string; width: number}): React.JSX.Element {
  const snapshot = useSnapshot();
  return (
    <Box width={width} height={1} justifyContent="space-between" overflow="hidden">
      <Box flexShrink={0}>
        {panes.map((pane, index) => {
          const focused = pane.id === focusedPaneId;
          return (
            <Box key={pane.id} marginRight={1}>
              <Text inverse={focused} bold={focused} color={focused ? 'cyan' : undefined} dimColor={!focused}>
                {` ${index + 1} ${paneTitle(pane, snapshot)} `}
              </Text>
            </Box>
          );
        })}
      </Box>
      <Box flexShrink={1} overflow="hidden">
        <Text dimColor wrap="truncate-start">
          {title}
        </Text>
      </Box>
    </Box>
  );
}
