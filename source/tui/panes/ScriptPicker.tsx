import React, {useCallback} from 'react';
import {ChoicePicker} from '../components/ChoicePicker.js';
import {usePorts} from '../contexts/PortsContext.js';
import type {ScriptChoice} from '../ports/processes.js';

/** `s` in the Processes pane: the project's scripts, started as written. */
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
  const load = useCallback(() => port.scripts(), [port]);
  return (
    <ChoicePicker
      title={{text: 'Start a script', pick: 'start'}}
      loading="loading scripts…"
      empty="no scripts found in this project"
      load={load}
      row={(script) => ({key: `${script.source}:${script.name}`, name: script.name, detail: `${script.command}  (${script.source})`})}
      focused={focused}
      width={width}
      height={height}
      onPick={onPick}
      onClose={onClose}
    />
  );
}
