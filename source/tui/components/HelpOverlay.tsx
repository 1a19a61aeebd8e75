import React from 'react';
import {Box, Text} from 'ink';
import {Command} from '../key/keyBindings.js';
import {KeyPriority} from '../key/keyPriority.js';
import {useKeypress} from '../hooks/useKeypress.js';
import {keyHelpLabel, type KeyHelp, type PaneDefinition} from '../panes/types.js';

export const GLOBAL_KEYS: KeyHelp[] = [
  {command: Command.NEXT_PANE, description: 'next pane'},
  {command: Command.PREV_PANE, description: 'previous pane'},
  {command: Command.FOCUS_PANE_N, description: 'go to pane N'},
  {command: Command.HELP, description: 'this help'},
  {command: Command.QUIT, description: 'quit (processes keep running in the daemon)'},
  {command: Command.FORCE_QUIT, description: 'quit'},
];

function KeyRows({keys, labelWidth}: {keys: KeyHelp[]; labelWidth: number}): React.JSX.Element {
  return (
    <>
      {keys.map((help) => (
        <Box key={`${keyHelpLabel(help)}:${help.description}`} height={1}>
          <Box width={labelWidth} flexShrink={0}>
            <Text color="cyan">{keyHelpLabel(help)}</Text>
          </Box>
          <Text wrap="truncate-end">{help.description}</Text>
        </Box>
      ))}
    </>
  );
}

/** `?`: the global keys and those of the focused pane; `?`, Esc or q close it, other keys are held. */
export function HelpOverlay({
  pane,
  width,
  height,
  compact,
  onClose,
}: {
  pane: PaneDefinition;
  width: number;
  height: number;
  compact: boolean;
  onClose: () => void;
}): React.JSX.Element {
  useKeypress(
    (press) => {
      if (press.name === 'escape' || press.input === '?' || press.input === 'q') onClose();
      return true;
    },
    {isActive: true, priority: KeyPriority.OVERLAY},
  );
  const all = [...GLOBAL_KEYS, ...pane.keys];
  const labelWidth = Math.max(...all.map((help) => keyHelpLabel(help).length)) + 2;
  const boxWidth = Math.min(width, 64);
  return (
    <Box width={width} height={height} justifyContent="center" alignItems="flex-start" overflow="hidden">
      <Box width={boxWidth} flexDirection="column" borderStyle="round" borderColor="cyan" paddingX={1} overflow="hidden">
        <Text bold>Keys — {pane.title}</Text>
        <KeyRows keys={pane.keys} labelWidth={labelWidth} />
        {/* A small terminal gets no spacer rows, so the global keys still fit. */}
        {!compact && <Box height={1} />}
        <Text bold>Everywhere</Text>
        <KeyRows keys={GLOBAL_KEYS} labelWidth={labelWidth} />
        {!compact && <Box height={1} />}
        {!compact && <Text dimColor>? or esc closes</Text>}
      </Box>
    </Box>
  );
}
