import React, {useEffect, useState} from 'react';
import {Box, Text} from 'ink';
import {describeError} from '../../core/errors.js';
import {toTerminalLine} from '../../text/terminal-safe.js';
import {useKeypress} from '../hooks/useKeypress.js';
import {Command, matchesCommand} from '../key/keyBindings.js';
import {KeyPriority} from '../key/keyPriority.js';
import {listWindowStart} from '../layouts/listWindow.js';

type Loaded<T> = {state: 'loading'} | {state: 'failed'; error: string} | {state: 'ready'; choices: T[]};

/** How one choice is drawn: its name, then dim detail, then an optional green mark (`running`). */
export interface ChoiceRow {
  key: string;
  name: string;
  detail: string;
  mark?: string;
}

/**
 * A list to pick one thing from (a script to run, a proxy to start): loaded once when it opens,
 * ↑/↓ and Enter, Esc or `q` to close. It holds every key while open, so `q` closes it, not the app.
 * Names and details come from the project's files: they are drawn terminal-safe.
 */
export function ChoicePicker<T>({
  title,
  loading,
  empty,
  load,
  row,
  focused,
  width,
  height,
  onPick,
  onClose,
}: {
  /** The heading, e.g. `Start a script`; `hint` text follows it dimmed. */
  title: {text: string; hint: string};
  loading: string;
  empty: string;
  load: () => Promise<T[]>;
  row: (choice: T) => ChoiceRow;
  focused: boolean;
  width: number;
  height: number;
  onPick: (choice: T) => void;
  onClose: () => void;
}): React.JSX.Element {
  const [loaded, setLoaded] = useState<Loaded<T>>({state: 'loading'});
  const [selected, setSelected] = useState(0);

  useEffect(() => {
    let live = true;
    load().then(
      (choices) => live && setLoaded({state: 'ready', choices}),
      (error: unknown) => live && setLoaded({state: 'failed', error: toTerminalLine(describeError(error))}),
    );
    return () => {
      live = false;
    };
  }, [load]);

  const list = loaded.state === 'ready' ? loaded.choices : [];
  useKeypress(
    (press) => {
      if (matchesCommand(Command.BACK, press) || press.input === 'q') onClose();
      else if (matchesCommand(Command.UP, press)) setSelected((index) => Math.max(0, index - 1));
      else if (matchesCommand(Command.DOWN, press)) setSelected((index) => Math.max(0, Math.min(list.length - 1, index + 1)));
      else if (matchesCommand(Command.EXPAND, press) && list[selected]) onPick(list[selected]);
      // Ctrl-C is handled above every overlay; everything else stops here.
      return true;
    },
    {isActive: focused, priority: KeyPriority.INPUT},
  );

  const rows = Math.max(1, height - 2);
  const start = listWindowStart(selected, list.length, rows);
  const shown = list.map(row);
  const nameWidth = Math.min(24, Math.max(6, ...shown.map((choice) => choice.name.length)) + 2);
  return (
    <Box flexDirection="column" width={width} height={height} overflowY="hidden">
      <Text bold wrap="truncate-end">
        {title.text} <Text dimColor>({title.hint})</Text>
      </Text>
      {loaded.state === 'loading' && <Text dimColor>{loading}</Text>}
      {loaded.state === 'failed' && (
        <Text color="red" wrap="truncate-end">
          ! {loaded.error}
        </Text>
      )}
      {loaded.state === 'ready' && list.length === 0 && <Text dimColor>{empty}</Text>}
      {shown.slice(start, start + rows).map((choice, offset) => {
        const isSelected = start + offset === selected;
        return (
          <Box key={choice.key} height={1}>
            <Text inverse={isSelected} wrap="truncate-end">
              {(isSelected ? '▸ ' : '  ') + toTerminalLine(choice.name).padEnd(nameWidth)}
              <Text dimColor>{toTerminalLine(choice.detail)}</Text>
              {choice.mark && <Text color="green"> {choice.mark}</Text>}
            </Text>
          </Box>
        );
      })}
    </Box>
  );
}
