import React, {useRef, useState} from 'react';
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
import {Command, matchesCommand} from '../key/keyBindings.js';
import {KeyPriority} from '../key/keyPriority.js';
import {listWindowStart} from '../layouts/listWindow.js';
import {lastLines} from '../text/terminalLines.js';
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

function ProcessRow({
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
}

function OutputView({
  process,
  lines,
  error,
  width,
  height,
}: {
  process: ProcessInfo | undefined;
  lines: string[];
  error: string | undefined;
  width: number;
  height: number;
}): React.JSX.Element {
  if (!process) return <Box width={width} height={height} />;
  // command and cwd are terminal-safe from the snapshot; the id is kept as the daemon knows it.
  const header = [shownProcessId(process.id), process.command, process.cwd].filter(Boolean).join(' · ');
  const bodyRows = Math.max(0, height - 1 - (error ? 1 : 0));
  const shown = lines.slice(-bodyRows);
  return (
    <Box width={width} height={height} flexDirection="column" overflow="hidden">
      <Box height={1}>
        <Text dimColor wrap="truncate-end">
          {header}
        </Text>
      </Box>
      {error && <MessageLine message={{kind: 'error', text: error}} width={width} />}
      {shown.length === 0 && !error && bodyRows > 0 && <Text dimColor>(no output yet)</Text>}
      {shown.map((line, index) => (
        <Box key={index} height={1} width={width}>
          <Text wrap="truncate-end">{line === '' ? ' ' : line}</Text>
        </Box>
      ))}
    </Box>
  );
}

function ProcessesPane({focused, width, height, compact}: PaneProps): React.JSX.Element {
  const {processes: port} = usePorts();
  const snapshot = useSnapshot();
  const filter = useFilterInput(focused);
  const now = useNow();
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
    () => port.output(selectedProcessId, OUTPUT_TAIL),
    (onChange) => port.watchOutput(selectedProcessId, onChange),
    [port, selectedProcessId],
    height > 0 && selected !== undefined,
  );

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
      if (matchesCommand(Command.UP, press)) move(-1);
      else if (matchesCommand(Command.DOWN, press)) move(1);
      else if (matchesCommand(Command.PAGE_UP, press)) move(-10);
      else if (matchesCommand(Command.PAGE_DOWN, press)) move(10);
      else if (matchesCommand(Command.FILTER, press)) filter.open();
      else if (matchesCommand(Command.START, press)) setPicking(true);
      else if (matchesCommand(Command.STOP, press) && selected) void act('stop', selected.id);
      else if (matchesCommand(Command.RESTART, press) && selected) void act('restart', selected.id);
      else if (matchesCommand(Command.BACK, press) && (filter.text || message)) {
        if (filter.text) filter.clear();
        else setMessage(undefined);
      } else return false;
      return true;
    },
    {isActive: focused && !picking && !filter.editing, priority: KeyPriority.PANE},
  );

  const messages: PaneMessage[] = [];
  if (snapshot.processesError) messages.push({kind: 'error', text: snapshot.processesError});
  if (message) messages.push(message);
  const headerRows = (filter.editing || filter.text ? 1 : 0) + messages.length;
  const bodyRows = Math.max(0, height - headerRows);

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

  const emptyText =
    snapshot.processes === undefined ? (snapshot.processesError ? '' : 'loading…') : all.length === 0 ? 'no processes · s starts a script' : 'no process matches the filter';
  const list = (
    <Box width={listWidth} height={listRows} flexDirection="column" overflow="hidden" flexShrink={0}>
      {visible.length === 0 && emptyText && <Text dimColor>{emptyText}</Text>}
      {visible.slice(listStart.current, listStart.current + listRows).map((process) => (
        <ProcessRow key={process.id} process={process} selected={process.id === selected?.id} focused={focused} idWidth={idWidth} now={now} width={listWidth} />
      ))}
    </Box>
  );
  const lines = selected ? lastLines(output.data ?? '', OUTPUT_TAIL) : [];

  return (
    <Box width={width} height={height} flexDirection="column" overflow="hidden">
      <FilterInput filter={filter} width={width} />
      {messages.map((line, index) => (
        <MessageLine key={index} message={line} width={width} />
      ))}
      {compact ? (
        <>
          {list}
          {outputRows > 1 && <OutputView process={selected} lines={lines} error={output.error} width={width} height={outputRows} />}
        </>
      ) : (
        <Box height={bodyRows} flexDirection="row">
          {list}
          <Box width={outputWidth + 1} height={bodyRows} borderStyle="single" borderColor="gray" borderTop={false} borderRight={false} borderBottom={false} flexShrink={0}>
            <OutputView process={selected} lines={lines} error={output.error} width={outputWidth} height={bodyRows} />
          </Box>
        </Box>
      )}
    </Box>
  );
}

export const processesPane: PaneDefinition = {
  id: 'processes',
  title: 'Processes',
  keys: [
    {command: Command.UP, description: 'previous process'},
    {command: Command.DOWN, description: 'next process'},
    {command: Command.START, description: 'start a script (pick from a list)'},
    {command: Command.STOP, description: 'stop the selected process'},
    {command: Command.RESTART, description: 'restart the selected process'},
    {command: Command.FILTER, description: 'filter by id or command'},
    {command: Command.BACK, description: 'clear the filter'},
  ],
  Component: ProcessesPane,
};
