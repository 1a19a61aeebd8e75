import React, {useEffect, useRef} from 'react';
import {Box, Text} from 'ink';
import {describeError} from '../../core/errors.js';
import {toTerminalLine} from '../../text/terminal-safe.js';
import {useKeypress} from '../hooks/useKeypress.js';
import {useKeyState} from '../hooks/useKeyState.js';
import {Command, matchesCommand} from '../key/keyBindings.js';
import {KeyPriority} from '../key/keyPriority.js';
import {keyLine} from '../key/keyTable.js';
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
 * Enter typed while the list still loads (`s` Enter in one go) is kept and picks once it has loaded.
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
  /** The heading, e.g. `Start a script`, then dimmed: `lead` (where the choices come from), and the keys, Enter's named `pick` (`start`). */
  title: {text: string; lead?: string; pick: string};
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
  // Read by the keys as the last key (or the load) left them, not as the last frame showed them.
  const [loaded, loadedNow, setLoaded] = useKeyState<Loaded<T>>({state: 'loading'});
  const [selected, selectedNow, setSelected] = useKeyState(0);
  // An Enter that came before the list: no key is lost, it picks the selected row once loaded.
  const pickWhenLoaded = useRef(false);
  const pick = useRef(onPick);
  pick.current = onPick;
  const choicesNow = () => {
    const now = loadedNow();
    return now.state === 'ready' ? now.choices : [];
  };

  useEffect(() => {
    let live = true;
    load().then(
      (choices) => {
        if (!live) return;
        setLoaded({state: 'ready', choices});
        if (!pickWhenLoaded.current) return;
        pickWhenLoaded.current = false;
        const choice = choices[Math.min(selectedNow(), choices.length - 1)];
        if (choice) pick.current(choice);
      },
      (error: unknown) => {
        pickWhenLoaded.current = false;
        if (live) setLoaded({state: 'failed', error: toTerminalLine(describeError(error))});
      },
    );
    return () => {
      live = false;
    };
    // The list is loaded once per opening: load is the owner's stable callback.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [load]);

  const list = loaded.state === 'ready' ? loaded.choices : [];
  useKeypress(
    (press) => {
      const choices = choicesNow();
      if (matchesCommand(Command.PICKER_CLOSE, press)) onClose();
      else if (matchesCommand(Command.UP, press)) setSelected(Math.max(0, selectedNow() - 1));
      else if (matchesCommand(Command.DOWN, press)) setSelected(Math.max(0, Math.min(choices.length - 1, selectedNow() + 1)));
      else if (matchesCommand(Command.EXPAND, press)) {
        if (loadedNow().state === 'loading') pickWhenLoaded.current = true;
        else if (choices[selectedNow()]) onPick(choices[selectedNow()]!);
      }
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
        {title.text} <Text dimColor>({[title.lead, keyLine('global', 'picker', {hints: {[Command.EXPAND]: title.pick}})].filter(Boolean).join(' · ')})</Text>
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
