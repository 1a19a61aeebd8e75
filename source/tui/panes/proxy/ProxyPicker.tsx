import React, {useCallback} from 'react';
import {ChoicePicker} from '../../components/ChoicePicker.js';
import {usePorts} from '../../contexts/PortsContext.js';
import type {ProxyChoice} from '../../ports/proxies.js';

/** `s` in the Proxy pane: the proxies of the project's .workbench.kdl, running ones marked. */
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
  const load = useCallback(() => port.configured(), [port]);
  return (
    <ChoicePicker
      title={{text: 'Start a proxy', lead: 'from .workbench.kdl', pick: 'start'}}
      loading="loading .workbench.kdl…"
      empty={'no proxies in .workbench.kdl (a `proxies` block: app { target "http://localhost:3000" })'}
      load={load}
      row={(choice) => ({
        key: choice.id,
        name: choice.id,
        detail: `→ ${choice.target}${choice.autostart ? '  (autostart)' : ''}`,
        mark: running.includes(choice.id) ? 'running' : undefined,
      })}
      focused={focused}
      width={width}
      height={height}
      onPick={onPick}
      onClose={onClose}
    />
  );
}
