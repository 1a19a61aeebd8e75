import React, {useMemo, useRef, useState} from 'react';
import {Box, Text} from 'ink';
import type {ProcessInfo} from '../../processes/types.js';
import type {ScriptChoice} from '../ports/processes.js';
import {describeError} from '../../core/errors.js';
import {usePorts} from '../contexts/PortsContext.js';
import {useSnapshot} from '../contexts/SnapshotContext.js';
import {useWatched} from '../hooks/useWatched.js';
import {useKeypress} from '../hooks/useKeypress.js';
import {useFilterInput, matchesFilter} from '../hooks/useFilterInput.js';
import {useNow} from '../hooks/useNow.js';
import {useTransientMessage} from '../hooks/useTransientMessage.js';
import {Command, lineLabel, matchesCommand} from '../key/keyBindings.js';
import {barHints} from '../key/keyTable.js';
import {useStatusHints} from '../hooks/useStatusHints.js';
import {KeyPriority} from '../key/keyPriority.js';
import {listWindowStart} from '../layouts/listWindow.js';
import {lastLines, toDisplayLines} from '../text/terminalLines.js';
import {DAEMON_STOPPED} from '../ports/tuiContext.js';
import {useOutputReader} from './processOutput.js';
import {shownProcessId} from '../text/shown.js';
import {FilterInput} from '../components/FilterInput.js';
import {MessageLine, type PaneMessage} from '../components/MessageLine.js';
import {ScriptPicker} from './ScriptPicker.js';
import {processUptime, statusLabel} from './processStatus.js';
import type {PaneDefinition, PaneProps} from './types.js';

// Lines of output asked for each time: more than any screen shows, little for the socket.
const OUTPUT_TAIL = 200;
const ID_WIDTH = {min: 4, max: 18};
const STATUS_WIDTH = 10;
const PID_WIDTH = 7;

/** The list while the daemon is stopped: what it supervised ended with it (`workbench daemon stop` stops them), and what `r` does. */
export const PROCESSES_GONE = `no processes: they ended with the daemon · ${lineLabel(Command.START_DAEMON)} starts a new daemon and the project's autostart scripts`;

// Memoised: a j/k draws again only the two rows whose selection changed.
const ProcessRow = React.memo(function ProcessRow({
  process,
  selected,
  focused,
  idWidth,
  now,
  width,
}: {
  process: ProcessInfo;
  selected: boolean;
  focused: boolean;
  idWidth: number;
  now: number;
  width: number;
}): React.JSX.Element {
  const status = statusLabel(process);
  const shownId = shownProcessId(process.id);
  const id = shownId.length > idWidth ? shownId.slice(0, idWidth - 1) + '…' : shownId.padEnd(idWidth);
  return (
    <Box height={1} width={width}>
      <Text inverse={selected && focused} bold={selected} wrap="truncate-end">
        {selected ? '▸ ' : '  '}
        {id}{' '}
        <Text color={status.color} dimColor={status.dim}>
          {status.text.padEnd(STATUS_WIDTH)}
        </Text>{' '}
        <Text dimColor>{String(process.pid ?? '-').padStart(PID_WIDTH)}</Text> {processUptime(process, now)}
      </Text>
    </Box>
  );
});

function ProcessesPane({focused, width, height, compact}: PaneProps): React.JSX.Element {
  const {processes: port} = usePorts();
  const snapshot = useSnapshot();
  const filter = useFilterInput(focused);
  const reader = useOutputReader(focused);
  // The uptimes in the list's window: the clock redraws the pane only when one of them reads differently.
  const windowRows = useRef<ProcessInfo[]>([]);
  const now = useNow((at) => windowRows.current.map((process) => processUptime(process, at)).join(' '));
  const [selectedId, setSelectedId] = useState<string>();
  const [picking, setPicking] = useState(false);
  const [message, setMessage] = useTransientMessage();
  const listStart = useRef(0);

  const all = snapshot.processes ?? [];
  const visible = all.filter((process) => matchesFilter(filter.text, process.id, process.command, process.scriptName));
  const selectedIndex = Math.max(
    0,
    visible.findIndex((process) => process.id === selectedId),
  );
  const selected = visible[selectedIndex];

  const selectedProcessId = selected?.id ?? '';
  const output = useWatched(
    // Reading asks for the whole ring; the list's preview only for its tail.
    () => port.output(selectedProcessId, reader.reading ? undefined : OUTPUT_TAIL),
    (onChange) => port.watchOutput(selectedProcessId, onChange),
    [port, selectedProcessId, reader.reading],
    height > 0 && selected !== undefined,
  );

  // Split once per answer, not on every render (a key, a clock tick): up to the whole ring.
  const outputText = selected ? (output.data ?? '') : undefined;
  const lines = useMemo(() => (outputText === undefined ? [] : reader.reading ? toDisplayLines(outputText) : lastLines(outputText, OUTPUT_TAIL)), [outputText, reader.reading]);

  const act = async (verb: 'stop' | 'restart', id: string) => {
    setMessage({kind: 'info', text: `${verb === 'stop' ? 'stopping' : 'restarting'} ${id}…`});
    try {
      const info = await port[verb](id);
      setMessage({kind: 'info', text: `${verb === 'stop' ? 'stopped' : 'restarted'} ${info.id}`});
    } catch (error) {
      setMessage({kind: 'error', text: `${verb} ${id} failed: ${describeError(error)}`});
    }
    snapshot.refreshProcesses();
  };

  const start = async (script: ScriptChoice) => {
    setPicking(false);
    setMessage({kind: 'info', text: `starting ${script.name}…`});
    try {
      const info = await port.start(script.name);
      setSelectedId(info.id);
      setMessage({kind: 'info', text: `started ${info.id}`});
    } catch (error) {
      setMessage({kind: 'error', text: `start ${script.name} failed: ${describeError(error)}`});
    }
    snapshot.refreshProcesses();
  };

  // From the selection as the last key left it, not as the last frame showed it: keys that come
  // faster than frames (a held ↓ on a busy machine) each move one row.
  const move = (step: number) =>
    setSelectedId((current) => {
      const index = Math.max(
        0,
        visible.findIndex((process) => process.id === current),
      );
      return visible[Math.max(0, Math.min(visible.length - 1, index + step))]?.id ?? current;
    });

  useKeypress(
    (press) => {
      if (reader.readingNow()) return false;
      if (matchesCommand(Command.UP, press)) move(-1);
      else if (matchesCommand(Command.DOWN, press)) move(1);
      else if (matchesCommand(Command.PAGE_UP, press)) move(-10);
      else if (matchesCommand(Command.PAGE_DOWN, press)) move(10);
      else if (matchesCommand(Command.FILTER, press)) filter.open();
      else if (matchesCommand(Command.OUTPUT_FOCUS, press) && selected) reader.open();
      else if (matchesCommand(Command.START, press)) setPicking(true);
      else if (matchesCommand(Command.STOP, press) && selected) void act('stop', selected.id);
      else if (matchesCommand(Command.RESTART, press) && selected) void act('restart', selected.id);
      else if (matchesCommand(Command.BACK, press) && (filter.text || message)) {
        if (filter.text) filter.clear();
        else setMessage(undefined);
      } else return false;
      return true;
    },
    {isActive: focused && !picking && !filter.editing && !reader.reading, priority: KeyPriority.PANE},
  );

  const daemonStopped = snapshot.processesError === DAEMON_STOPPED;
  useStatusHints(
    focused,
    daemonStopped
      ? barHints('global', 'stopped')
      : filter.editing || reader.search.editing
        ? barHints('global', 'filter')
        : reader.reading
          ? barHints('processes', 'output')
          : picking
            ? barHints('global', 'picker')
            : barHints('processes', 'list'),
  );

  const messages: PaneMessage[] = [];
  if (snapshot.processesError) messages.push({kind: 'error', text: snapshot.processesError});
  if (message) messages.push(message);
  const headerRows = (filter.editing || filter.text ? 1 : 0) + messages.length;
  const bodyRows = Math.max(0, height - headerRows);

  // Nothing to list or read: the line says so across the pane, not wrapped in the list's column.
  if (daemonStopped) {
    return (
      <Box width={width} height={height} flexDirection="column" overflowY="hidden">
        {messages.map((line, index) => (
          <MessageLine key={index} message={line} width={width} />
        ))}
        <Text dimColor>{PROCESSES_GONE}</Text>
      </Box>
    );
  }

  if (picking) {
    return <ScriptPicker focused={focused} width={width} height={height} onPick={(script) => void start(script)} onClose={() => setPicking(false)} />;
  }

  const idWidth = Math.min(ID_WIDTH.max, Math.max(ID_WIDTH.min, ...all.map((process) => process.id.length)));
  const rowWidth = 2 + idWidth + 1 + STATUS_WIDTH + 1 + PID_WIDTH + 1 + 6;
  const listWidth = compact ? width : Math.min(Math.max(rowWidth, 28), Math.floor(width * 0.45));
  const outputWidth = compact ? width : Math.max(0, width - listWidth - 1);
  const listRows = compact ? Math.min(Math.max(visible.length, 1), Math.max(3, Math.floor(bodyRows * 0.4))) : bodyRows;
  const outputRows = compact ? Math.max(0, bodyRows - listRows) : bodyRows;
  listStart.current = listWindowStart(selectedIndex, visible.length, listRows, listStart.current);
  windowRows.current = height > 0 ? visible.slice(listStart.current, listStart.current + listRows) : [];

  const emptyText =
    snapshot.processes === undefined
      ? snapshot.processesError
        ? ''
        : 'loading…'
      : all.length === 0
        ? `no processes · ${lineLabel(Command.START)} starts a script`
        : 'no process matches the filter';
  const list = (
    <Box width={listWidth} height={listRows} flexDirection="column" overflowY="hidden" flexShrink={0}>
      {visible.length === 0 && emptyText && <Text dimColor>{emptyText}</Text>}
      {windowRows.current.map((process) => (
        <ProcessRow key={process.id} process={process} selected={process.id === selected?.id} focused={focused} idWidth={idWidth} now={now} width={listWidth} />
      ))}
    </Box>
  );

  return (
    <Box width={width} height={height} flexDirection="column" overflowY="hidden">
      <FilterInput filter={filter} width={width} />
      {messages.map((line, index) => (
        <MessageLine key={index} message={line} width={width} />
      ))}
      {compact ? (
        <>
          {list}
          {outputRows > 1 && reader.view({process: selected, lines, error: output.error, width: width, height: outputRows, focused})}
        </>
      ) : (
        <Box height={bodyRows} flexDirection="row">
          {list}
          <Box width={outputWidth + 1} height={bodyRows} borderStyle="single" borderColor="gray" borderTop={false} borderRight={false} borderBottom={false} flexShrink={0}>
            {reader.view({process: selected, lines, error: output.error, width: outputWidth, height: bodyRows, focused})}
          </Box>
        </Box>
      )}
    </Box>
  );
}

export const processesPane: PaneDefinition = {
  id: 'processes',
  title: 'Processes',
  Component: ProcessesPane,
};
