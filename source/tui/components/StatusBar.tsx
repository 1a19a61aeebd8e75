import React from 'react';
import {Box, Text} from 'ink';
import {toTerminalLine} from '../../text/terminal-safe.js';
import {useSnapshot} from '../contexts/SnapshotContext.js';
import {Command, lineLabel} from '../key/keyBindings.js';
import {barHints} from '../key/keyTable.js';

/** Bottom row: backend state, what is running and failing, and the keys worth pressing next. */
export function StatusBar({
  width,
  compact,
  helpOpen,
  hints: paneHints,
  zoomed = false,
  mouse = false,
}: {
  width: number;
  compact: boolean;
  helpOpen: boolean;
  /** The focused pane's hints for its mode; undefined: the general ones. */
  hints?: string[];
  zoomed?: boolean;
  mouse?: boolean;
}): React.JSX.Element {
  const snapshot = useSnapshot();
  const running = snapshot.processes?.filter((process) => process.status === 'running' || process.status === 'starting').length;
  const errors = snapshot.errors?.filter((entry) => entry.severity === 'error').length;
  const warnings = snapshot.errors?.filter((entry) => entry.severity === 'warning').length;
  const state = snapshot.descriptionError ?? snapshot.processesError ?? snapshot.description ?? 'connecting…';
  const stateIsError = snapshot.descriptionError !== undefined || (snapshot.description === undefined && snapshot.processesError !== undefined);

  const general = barHints('global', 'everywhere', compact ? {only: [Command.HELP, Command.QUIT]} : {});
  const hints = helpOpen
    ? barHints('global', 'help')
    : [
        ...(zoomed ? [`${lineLabel(Command.ZOOM)} unzoom`] : []),
        ...(mouse ? [] : compact ? [] : [`${lineLabel(Command.MOUSE)} mouse off`]),
        ...(paneHints ? [...(compact ? paneHints.slice(0, 2) : paneHints), ...barHints('global', 'everywhere', {only: [Command.HELP]})] : general),
      ];

  return (
    <Box width={width} height={1} overflow="hidden">
      <Box flexShrink={1} overflow="hidden">
        <Text color={stateIsError ? 'red' : undefined} dimColor={!stateIsError} wrap="truncate-end">
          {toTerminalLine(state)}
        </Text>
      </Box>
      <Box flexShrink={0} marginLeft={1}>
        <Text>
          <Text color="green">{running ?? '-'}</Text>
          {compact ? ' run ' : ' running · '}
          <Text color={errors ? 'red' : undefined}>{errors ?? '-'}</Text>
          {compact ? ' err' : errors === 1 ? ' error · ' : ' errors · '}
          {compact ? '' : <Text color={warnings ? 'yellow' : undefined}>{warnings ?? '-'}</Text>}
          {compact ? '' : warnings === 1 ? ' warning' : ' warnings'}
        </Text>
      </Box>
      <Box flexGrow={1} flexShrink={0} justifyContent="flex-end" marginLeft={1}>
        <Text dimColor>{hints.join('  ')}</Text>
      </Box>
    </Box>
  );
}
