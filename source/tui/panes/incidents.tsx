import React, {useRef, useState} from 'react';
import {Box, Text} from 'ink';
import type {UnifiedError} from '../../incidents/types.js';
import {useSnapshot} from '../contexts/SnapshotContext.js';
import {useKeypress} from '../hooks/useKeypress.js';
import {useFilterInput, matchesFilter} from '../hooks/useFilterInput.js';
import {useNow} from '../hooks/useNow.js';
import {Command, matchesCommand} from '../key/keyBindings.js';
import {KeyPriority} from '../key/keyPriority.js';
import {listWindowStart} from '../layouts/listWindow.js';
import {formatAge} from '../../incidents/age.js';
import {FilterInput} from '../components/FilterInput.js';
import {MessageLine} from '../components/MessageLine.js';
import {incidentKey} from '../ports/incidents.js';
import type {PaneDefinition, PaneProps} from './types.js';

const SOURCE_WIDTH = 18;
const CATEGORY_WIDTH = 18;

const fit = (text: string, width: number) => (text.length > width ? text.slice(0, width - 1) + '…' : text.padEnd(width));
const oneLine = (text: string) => text.replace(/\s*\n\s*/g, ' ⏎ ');
// The age `workbench get-errors` prints in `(<count>x, <age> ago)`.
const ageOf = (entry: UnifiedError, now: number) => formatAge(now - Date.parse(entry.last_seen));

function SeverityMark({entry}: {entry: UnifiedError}): React.JSX.Element {
  return entry.severity === 'error' ? <Text color="red">✖ </Text> : <Text color="yellow">▲ </Text>;
}

function IncidentRow({
  entry,
  selected,
  focused,
  compact,
  now,
  width,
}: {
  entry: UnifiedError;
  selected: boolean;
  focused: boolean;
  compact: boolean;
  now: number;
  width: number;
}): React.JSX.Element {
  return (
    <Box height={1} width={width}>
      <Text inverse={selected && focused} bold={selected} wrap="truncate-end">
        {selected ? '▸' : ' '}
        <SeverityMark entry={entry} />
        <Text dimColor>{ageOf(entry, now).padStart(6)} </Text>
        {`${entry.count}x`.padStart(5)} {!compact && <Text color="cyan">{fit(entry.source, SOURCE_WIDTH)} </Text>}
        <Text bold>{fit(entry.category || '-', compact ? 12 : CATEGORY_WIDTH)} </Text>
        {oneLine(entry.message)}
      </Text>
    </Box>
  );
}

function Field({name, value}: {name: string; value: string}): React.JSX.Element | null {
  if (!value) return null;
  return (
    <Text wrap="truncate-end">
      <Text dimColor>{name.padEnd(10)}</Text>
      {value}
    </Text>
  );
}

/** Enter on an incident: everything get-errors knows about it, the message in full. */
function IncidentDetail({entry, now, width, height}: {entry: UnifiedError; now: number; width: number; height: number}): React.JSX.Element {
  return (
    <Box width={width} height={height} flexDirection="column" overflow="hidden">
      <Text wrap="truncate-end">
        <SeverityMark entry={entry} />
        <Text bold>{entry.category || entry.severity}</Text>
        <Text dimColor>{`  ${entry.count}x · last seen ${ageOf(entry, now)} ago (${entry.last_seen})`}</Text>
      </Text>
      <Field name="source" value={entry.source} />
      <Field name="location" value={entry.location} />
      <Field name="page" value={entry.page} />
      <Box marginTop={1} flexDirection="column" overflow="hidden">
        <Text wrap="wrap">{entry.message}</Text>
      </Box>
    </Box>
  );
}

function IncidentsPane({focused, width, height, compact}: PaneProps): React.JSX.Element {
  const snapshot = useSnapshot();
  const filter = useFilterInput(focused);
  const now = useNow();
  const [selectedKey, setSelectedKey] = useState<string>();
  const [expanded, setExpanded] = useState(false);
  const listStart = useRef(0);

  // In the inbox's own order, as get-errors prints them: errors first, then newest.
  const all = snapshot.errors ?? [];
  const visible = all.filter((entry) => matchesFilter(filter.text, entry.message, entry.category, entry.source, entry.location, entry.page));
  const selectedIndex = Math.max(
    0,
    visible.findIndex((entry) => incidentKey(entry) === selectedKey),
  );
  const selected = visible[selectedIndex];

  // From the selection as the last key left it (keys may come faster than frames).
  const move = (step: number) =>
    setSelectedKey((current) => {
      const index = Math.max(
        0,
        visible.findIndex((entry) => incidentKey(entry) === current),
      );
      const next = visible[Math.max(0, Math.min(visible.length - 1, index + step))];
      return next ? incidentKey(next) : current;
    });

  useKeypress(
    (press) => {
      if (matchesCommand(Command.UP, press)) move(-1);
      else if (matchesCommand(Command.DOWN, press)) move(1);
      else if (matchesCommand(Command.PAGE_UP, press)) move(-10);
      else if (matchesCommand(Command.PAGE_DOWN, press)) move(10);
      else if (matchesCommand(Command.EXPAND, press) && selected) {
        setSelectedKey(incidentKey(selected));
        setExpanded(true);
      } else if (matchesCommand(Command.FILTER, press)) {
        setExpanded(false);
        filter.open();
      } else if (matchesCommand(Command.BACK, press) && (expanded || filter.text)) {
        if (expanded) setExpanded(false);
        else filter.clear();
      } else return false;
      return true;
    },
    {isActive: focused && !filter.editing, priority: KeyPriority.PANE},
  );

  const error = snapshot.errorsError;
  const headerRows = (filter.editing || filter.text ? 1 : 0) + (error ? 1 : 0);
  const bodyRows = Math.max(0, height - headerRows);
  listStart.current = listWindowStart(selectedIndex, visible.length, bodyRows, listStart.current);
  const emptyText = snapshot.errors === undefined ? (error ? '' : 'loading…') : all.length === 0 ? 'no errors or warnings' : 'no incident matches the filter';

  return (
    <Box width={width} height={height} flexDirection="column" overflow="hidden">
      <FilterInput filter={filter} width={width} />
      <MessageLine message={error ? {kind: 'error', text: error} : undefined} width={width} />
      {expanded && selected ? (
        <IncidentDetail entry={selected} now={now} width={width} height={bodyRows} />
      ) : (
        <Box width={width} height={bodyRows} flexDirection="column" overflow="hidden">
          {visible.length === 0 && emptyText && <Text dimColor>{emptyText}</Text>}
          {visible.slice(listStart.current, listStart.current + bodyRows).map((entry) => (
            <IncidentRow key={incidentKey(entry)} entry={entry} selected={entry === selected} focused={focused} compact={compact} now={now} width={width} />
          ))}
        </Box>
      )}
    </Box>
  );
}

export const incidentsPane: PaneDefinition = {
  id: 'incidents',
  title: 'Incidents',
  keys: [
    {command: Command.UP, description: 'previous incident'},
    {command: Command.DOWN, description: 'next incident'},
    {command: Command.EXPAND, description: 'show the full message, location and page'},
    {command: Command.BACK, description: 'collapse, then clear the filter'},
    {command: Command.FILTER, description: 'filter by text'},
  ],
  Component: IncidentsPane,
};
