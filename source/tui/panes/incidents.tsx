import React, {useRef, useState} from 'react';
import {Box, Text, useStdin, useStdout} from 'ink';
import type {Incident} from '../../incidents/incidents.js';
import {useSnapshot} from '../contexts/SnapshotContext.js';
import {useKeypress} from '../hooks/useKeypress.js';
import {useFilterInput, matchesFilter} from '../hooks/useFilterInput.js';
import {useNow} from '../hooks/useNow.js';
import {Command, lineLabel, matchesCommand, moveStep} from '../key/keyBindings.js';
import {barHints} from '../key/keyTable.js';
import {useStatusHints} from '../hooks/useStatusHints.js';
import {KeyPriority} from '../key/keyPriority.js';
import {listWindowStart} from '../layouts/listWindow.js';
import {shownAge} from '../text/age.js';
import {FilterInput} from '../components/FilterInput.js';
import {MessageLine, type PaneMessage} from '../components/MessageLine.js';
import {incidentKey} from '../ports/incidents.js';
import {DAEMON_STOPPED} from '../ports/tuiContext.js';
import {openInEditor} from '../terminal/editor.js';
import {IncidentDetail, processIdOf} from './incidents/IncidentDetail.js';
import {nextSort, SORT_LABELS, sortIncidents, type IncidentSort} from './incidents/sort.js';
import type {PaneDefinition, PaneProps} from './types.js';

/** The list while the daemon is stopped: its inbox (alerts, proxy errors, read marks) ended with it. */
export const INCIDENTS_GONE = 'no incidents: the inbox ended with the daemon · r starts a new daemon';

const SOURCE_WIDTH = 18;
const CATEGORY_WIDTH = 18;

const fit = (text: string, width: number) => (text.length > width ? text.slice(0, width - 1) + '…' : text.padEnd(width));
const oneLine = (text: string) => text.replace(/\s*\n\s*/g, ' ⏎ ');
// The age `workbench get-incidents` prints in `(<count>x, <age> ago)`, moving every ten seconds (text/age.ts).
const ageOf = (entry: Incident, now: number) => shownAge(now, Date.parse(entry.last_seen));

function SeverityMark({entry}: {entry: Incident}): React.JSX.Element {
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
  entry: Incident;
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
        {entry.run !== undefined && <Text color="magenta">{`run ${entry.run} `}</Text>}
        {oneLine(entry.message)}
        {entry.variant_count !== undefined && <Text dimColor>{` (${entry.variant_count} variants)`}</Text>}
      </Text>
    </Box>
  );
}

/**
 * Items that arrived after the first look and were never drawn: counted while they sit above the
 * list's window (`↑ 3 new`), seen once they are drawn.
 */
function useUnseen() {
  const seen = useRef(new Map<string, boolean>());
  const loaded = useRef(false);
  return (all: Incident[] | undefined, visible: Incident[], start: number, rows: number): number => {
    if (!all) return 0;
    for (const entry of all) if (!seen.current.has(entry.id)) seen.current.set(entry.id, !loaded.current);
    loaded.current = true;
    for (const entry of visible.slice(start, start + rows)) seen.current.set(entry.id, true);
    let above = 0;
    for (const entry of visible.slice(0, start)) if (seen.current.get(entry.id) === false) above += 1;
    return above;
  };
}

function IncidentsPane({focused, width, height, compact}: PaneProps): React.JSX.Element {
  const snapshot = useSnapshot();
  const filter = useFilterInput(focused);
  // The ages on screen (the list's window, or the open incident's): the clock redraws the pane only when one reads differently.
  const shownEntries = useRef<Incident[]>([]);
  const now = useNow((at) => shownEntries.current.map((entry) => ageOf(entry, at)).join(' '));
  const {stdin} = useStdin();
  const {stdout} = useStdout();
  const [selectedKey, setSelectedKey] = useState<string>();
  const [expanded, setExpanded] = useState(false);
  const [detailScroll, setDetailScroll] = useState(0);
  const [sort, setSort] = useState<IncidentSort>('inbox');
  const [message, setMessage] = useState<PaneMessage>();
  const listStart = useRef(0);
  const unseenAbove = useUnseen();

  const all = snapshot.errors ?? [];
  const visible = sortIncidents(
    all.filter((entry) => matchesFilter(filter.text, entry.message, entry.category, entry.source, entry.location, entry.page, ...(entry.variants ?? []))),
    sort,
  );
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

  const openEditor = (incident: Incident) => {
    const processId = processIdOf(incident);
    const cwd = snapshot.processes?.find((info) => info.id === processId)?.cwd ?? process.cwd();
    const outcome = openInEditor(incident.location, {cwd, streams: {stdin, stdout}});
    // A new message also makes ink redraw its whole frame on the screen the editor left.
    setMessage(
      outcome.opened
        ? {kind: 'info', text: `${incident.location} opened in ${outcome.editor}${outcome.exitCode ? ` (exit ${outcome.exitCode})` : ''}`}
        : {kind: outcome.reason.startsWith('could not') ? 'error' : 'info', text: outcome.reason},
    );
  };

  useKeypress(
    (press) => {
      const step = moveStep(press);
      if (step !== 0 && expanded) setDetailScroll((current) => Math.max(0, current + step));
      else if (step !== 0) move(step);
      else if (matchesCommand(Command.EXPAND, press) && selected) {
        // The selection the keys before this one left (j j Enter in one batch), else the row shown selected.
        setSelectedKey((current) => current ?? incidentKey(selected));
        setDetailScroll(0);
        setExpanded(true);
      } else if (matchesCommand(Command.INCIDENTS_EDIT, press) && selected) openEditor(selected);
      else if (matchesCommand(Command.INCIDENTS_SORT, press) && !expanded) {
        setSort((current) => nextSort(current));
        setMessage(undefined);
      } else if (matchesCommand(Command.FILTER, press)) {
        setExpanded(false);
        filter.open();
      } else if (matchesCommand(Command.BACK, press) && (expanded || filter.text || message)) {
        if (message) setMessage(undefined);
        else if (expanded) setExpanded(false);
        else filter.clear();
      } else return false;
      return true;
    },
    {isActive: focused && !filter.editing, priority: KeyPriority.PANE},
  );

  useStatusHints(focused, filter.editing ? barHints('global', 'filter') : barHints('incidents', 'list'));

  const error = snapshot.errorsError;
  const shownMessage = error ? {kind: 'error' as const, text: error} : message;
  const sortRow = sort !== 'inbox' && !expanded ? 1 : 0;
  const headerRows = (filter.editing || filter.text ? 1 : 0) + (shownMessage ? 1 : 0) + sortRow;
  let bodyRows = Math.max(0, height - headerRows);
  listStart.current = listWindowStart(selectedIndex, visible.length, bodyRows, listStart.current);
  let unseen = unseenAbove(snapshot.errors, visible, listStart.current, bodyRows);
  if (unseen > 0 && !expanded) {
    // The marker takes a row; the window keeps the selection in view in what is left.
    bodyRows = Math.max(0, bodyRows - 1);
    listStart.current = listWindowStart(selectedIndex, visible.length, bodyRows, listStart.current);
    unseen = unseenAbove(snapshot.errors, visible, listStart.current, bodyRows);
  }
  const windowEntries = visible.slice(listStart.current, listStart.current + bodyRows);
  shownEntries.current = height <= 0 ? [] : expanded && selected ? [selected] : windowEntries;
  const emptyText =
    snapshot.errors === undefined
      ? error === DAEMON_STOPPED
        ? INCIDENTS_GONE
        : error
          ? ''
          : 'loading…'
      : all.length === 0
        ? 'no errors or warnings'
        : 'no incident matches the filter';

  return (
    <Box width={width} height={height} flexDirection="column" overflowY="hidden">
      <FilterInput filter={filter} width={width} />
      <MessageLine message={shownMessage} width={width} />
      {sortRow > 0 && <Text dimColor>{`sorted by ${SORT_LABELS[sort]} · ${lineLabel(Command.INCIDENTS_SORT)} to change`}</Text>}
      {expanded && selected ? (
        <IncidentDetail incident={selected} now={now} width={width} height={bodyRows} scroll={detailScroll} />
      ) : (
        <Box width={width} height={bodyRows + (unseen > 0 ? 1 : 0)} flexDirection="column" overflowY="hidden">
          {unseen > 0 && <Text color="yellow">{`↑ ${unseen} new`}</Text>}
          {visible.length === 0 && emptyText && <Text dimColor>{emptyText}</Text>}
          {windowEntries.map((entry) => (
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
  Component: IncidentsPane,
  count: (snapshot) => snapshot.errors?.length,
};
