import React, {useEffect, useState} from 'react';
import {Box, Text} from 'ink';
import type {ScriptChoice} from '../ports/processes.js';
import {usePorts} from '../contexts/PortsContext.js';
import {describeError} from '../../core/errors.js';
import {useKeypress} from '../hooks/useKeypress.js';
import {KeyPriority} from '../key/keyPriority.js';
import {Command, matchesCommand} from '../key/keyBindings.js';
import {listWindowStart} from '../layouts/listWindow.js';
import {toTerminalLine} from '../../text/terminal-safe.js';

type Scripts = {state: 'loading'} | {state: 'failed'; error: string} | {state: 'ready'; scripts: ScriptChoice[]};

/** The `s` list of scripts to start; it holds every key while open, so `q` closes it, not the app. */
export function ScriptPicker({
  focused,
  width,
  height,
  onPick,
  onClose,
}: {
  focused: boolean;
  width: number;
  height: number;
  onPick: (script: ScriptChoice) => void;
  onClose: () => void;
}): React.JSX.Element {
  const {processes: port} = usePorts();
  const [scripts, setScripts] = useState<Scripts>({state: 'loading'});
  const [selected, setSelected] = useState(0);

  useEffect(() => {
    let live = true;
    port.scripts().then(
      (list) => live && setScripts({state: 'ready', scripts: list}),
      (error: unknown) => live && setScripts({state: 'failed', error: toTerminalLine(describeError(error))}),
    );
    return () => {
      live = false;
    };
  }, [port]);

  const list = scripts.state === 'ready' ? scripts.scripts : [];
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
  const nameWidth = Math.min(24, Math.max(6, ...list.map((script) => script.name.length)) + 2);
  return (
    <Box flexDirection="column" width={width} height={height} overflowY="hidden">
      <Text bold wrap="truncate-end">
        Start a script <Text dimColor>(↑/↓ choose · enter start · esc cancel)</Text>
      </Text>
      {scripts.state === 'loading' && <Text dimColor>loading scripts…</Text>}
      {scripts.state === 'failed' && (
        <Text color="red" wrap="truncate-end">
          ! {scripts.error}
        </Text>
      )}
      {scripts.state === 'ready' && list.length === 0 && <Text dimColor>no scripts found in this project</Text>}
      {list.slice(start, start + rows).map((script, offset) => {
        const isSelected = start + offset === selected;
        return (
          <Box key={`${script.source}:${script.name}`} height={1}>
            <Text inverse={isSelected} wrap="truncate-end">
              {/* Names and commands come from the project's files: drawn terminal-safe, started as written. */}
              {(isSelected ? '▸ ' : '  ') + toTerminalLine(script.name).padEnd(nameWidth)}
              <Text dimColor>{toTerminalLine(`${script.command}  (${script.source})`)}</Text>
            </Text>
          </Box>
        );
      })}
    </Box>
  );
}
