import React, {useEffect, useState} from 'react';
import {Box, Text} from 'ink';
import {describeError} from '../../../core/errors.js';
import {toTerminalLine} from '../../../text/terminal-safe.js';
import {usePorts} from '../../contexts/PortsContext.js';
import {useKeypress} from '../../hooks/useKeypress.js';
import {Command, matchesCommand} from '../../key/keyBindings.js';
import {KeyPriority} from '../../key/keyPriority.js';
import {listWindowStart} from '../../layouts/listWindow.js';
import type {ProxyChoice} from '../../ports/proxies.js';

type Choices = {state: 'loading'} | {state: 'failed'; error: string} | {state: 'ready'; choices: ProxyChoice[]};

/** `s`: the proxies of the project's .workbench.kdl to start; it holds every key while open, so `q` closes it, not the app. */
export function ProxyPicker({
  focused,
  width,
  height,
  running,
  onPick,
  onClose,
}: {
  focused: boolean;
  width: number;
  height: number;
  /** Ids of the proxies running now: marked, and starting one again says so. */
  running: string[];
  onPick: (choice: ProxyChoice) => void;
  onClose: () => void;
}): React.JSX.Element {
  const {proxies: port} = usePorts();
  const [choices, setChoices] = useState<Choices>({state: 'loading'});
  const [selected, setSelected] = useState(0);

  useEffect(() => {
    let live = true;
    port.configured().then(
      (list) => live && setChoices({state: 'ready', choices: list}),
      (error: unknown) => live && setChoices({state: 'failed', error: toTerminalLine(describeError(error))}),
    );
    return () => {
      live = false;
    };
  }, [port]);

  const list = choices.state === 'ready' ? choices.choices : [];
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
  const idWidth = Math.min(24, Math.max(6, ...list.map((choice) => choice.id.length)) + 2);
  return (
    <Box flexDirection="column" width={width} height={height} overflowY="hidden">
      <Text bold wrap="truncate-end">
        Start a proxy <Text dimColor>(from .workbench.kdl · ↑/↓ choose · enter start · esc cancel)</Text>
      </Text>
      {choices.state === 'loading' && <Text dimColor>loading .workbench.kdl…</Text>}
      {choices.state === 'failed' && (
        <Text color="red" wrap="truncate-end">
          ! {choices.error}
        </Text>
      )}
      {choices.state === 'ready' && list.length === 0 && <Text dimColor>{'no proxies in .workbench.kdl (a `proxies` block: app { target "http://localhost:3000" })'}</Text>}
      {list.slice(start, start + rows).map((choice, offset) => {
        const isSelected = start + offset === selected;
        return (
          <Box key={choice.id} height={1}>
            <Text inverse={isSelected} wrap="truncate-end">
              {/* From the project's file: drawn terminal-safe, started as written. */}
              {(isSelected ? '▸ ' : '  ') + toTerminalLine(choice.id).padEnd(idWidth)}
              <Text dimColor>{toTerminalLine(`→ ${choice.target}${choice.autostart ? '  (autostart)' : ''}`)}</Text>
              {running.includes(choice.id) && <Text color="green"> running</Text>}
            </Text>
          </Box>
        );
      })}
    </Box>
  );
}
