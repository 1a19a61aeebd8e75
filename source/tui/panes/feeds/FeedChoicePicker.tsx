import React, {useRef} from 'react';
import {Box, Text} from 'ink';
import type {DiscoveredFeed} from '../../../feeds/types.js';
import {toTerminalLine} from '../../../text/terminal-safe.js';
import {useKeypress} from '../../hooks/useKeypress.js';
import {useKeyState} from '../../hooks/useKeyState.js';
import {KeyPriority} from '../../key/keyPriority.js';
import {Command, matchesCommand} from '../../key/keyBindings.js';
import {keyLine} from '../../key/keyTable.js';
import {listWindowStart} from '../../layouts/listWindow.js';

/** `a` on a page that links several feeds: pick one (Enter), or Esc/q to subscribe to none. */
export function FeedChoicePicker({
  page,
  choices,
  focused,
  width,
  height,
  onPick,
  onClose,
}: {
  page: string;
  choices: DiscoveredFeed[];
  focused: boolean;
  width: number;
  height: number;
  onPick: (choice: DiscoveredFeed) => void;
  onClose: () => void;
}): React.JSX.Element {
  // `j` Enter in one read picks the choice `j` reached.
  const [selected, selectedNow, setSelected] = useKeyState(0);
  const start = useRef(0);
  const rows = Math.max(1, height - 2);
  useKeypress(
    (press) => {
      const move = (step: number) => setSelected(Math.max(0, Math.min(choices.length - 1, selectedNow() + step)));
      const choice = choices[selectedNow()];
      if (matchesCommand(Command.UP, press)) move(-1);
      else if (matchesCommand(Command.DOWN, press)) move(1);
      else if (matchesCommand(Command.EXPAND, press) && choice) onPick(choice);
      else if (matchesCommand(Command.PICKER_CLOSE, press)) onClose();
      // Everything else is held here: the list under the picker does not move.
      return true;
    },
    {isActive: focused, priority: KeyPriority.OVERLAY},
  );
  const first = listWindowStart(selected, choices.length, rows, start.current);
  start.current = first;
  return (
    <Box width={width} height={height} flexDirection="column" overflowY="hidden">
      <Text bold color="cyan" wrap="truncate-end">
        {toTerminalLine(`${page} links ${choices.length} feeds: pick one`)}
      </Text>
      {choices.slice(first, first + rows).map((choice, offset) => (
        <Box key={choice.url} height={1} width={width}>
          <Text inverse={first + offset === selected} wrap="truncate-end">
            {first + offset === selected ? '▸ ' : '  '}
            {toTerminalLine(`${choice.title ?? '(untitled)'}${choice.format ? ` · ${choice.format}` : ''} · ${choice.url}`)}
          </Text>
        </Box>
      ))}
      <Text dimColor wrap="truncate-end">
        {keyLine('global', 'picker', {hints: {[Command.EXPAND]: 'subscribe'}})}
      </Text>
    </Box>
  );
}
