import React, {useEffect, useRef, useState} from 'react';
import {Box, Text} from 'ink';
import type {ProcessInfo} from '../../processes/types.js';
import {stripAnsi} from '../../text/ansi.js';
import {useFilterInput, type FilterInputState} from '../hooks/useFilterInput.js';
import {InputLine} from '../components/InputLine.js';
import {useKeypress} from '../hooks/useKeypress.js';
import {Command, keyLabel, lineLabel, matchesCommand} from '../key/keyBindings.js';
import {keyLine} from '../key/keyTable.js';
import {KeyPriority} from '../key/keyPriority.js';
import {shownProcessId} from '../text/shown.js';
import {MessageLine} from '../components/MessageLine.js';

const SGR = /\u001b\[[0-9;:]*m/y;

/** One display row of a line: `line` is the index of the output line it belongs to. */
interface Row {
  line: number;
  text: string;
}

/** Cuts a line (ANSI colours kept) into rows of `width` cells; a row carries the colours open before it. */
export function wrapLine(line: string, width: number): string[] {
  if (width <= 0) return [line];
  const rows: string[] = [];
  let current = '';
  let cells = 0;
  let open = '';
  for (let index = 0; index < line.length;) {
    SGR.lastIndex = index;
    const sgr = SGR.exec(line);
    if (sgr) {
      current += sgr[0];
      open = sgr[0] === '\u001b[0m' || sgr[0] === '\u001b[m' ? '' : open + sgr[0];
      index += sgr[0].length;
      continue;
    }
    const char = String.fromCodePoint(line.codePointAt(index)!);
    if (cells === width) {
      rows.push(current + '\u001b[0m');
      current = open;
      cells = 0;
    }
    current += char;
    cells++;
    index += char.length;
  }
  rows.push(current);
  return rows;
}

export interface OutputReader {
  /** Keys go to the output (scroll, search, wrap) instead of the process list. */
  reading: boolean;
  /** Whether the output has the keys as the last key left it (a key may come before the next frame). */
  readingNow(): boolean;
  open(): void;
  search: FilterInputState;
  view(props: {process: ProcessInfo | undefined; lines: string[]; error: string | undefined; width: number; height: number; focused: boolean}): React.JSX.Element;
}

/**
 * The output of the selected process, readable like k9s' log view: it follows the tail until
 * scrolled (then a marker says so), scrolls through the whole ring (↑↓ pgup pgdn g G home end),
 * wraps long lines on `w`, and searches with `/`, `n` and `N` (the match highlighted).
 */
export function useOutputReader(focused: boolean): OutputReader {
  const [reading, setReadingState] = useState(false);
  // As the last key left it: `enter` then `/` before the next frame must search the output, not filter the list.
  const readingRef = useRef(false);
  const setReading = (next: boolean) => {
    readingRef.current = next;
    setReadingState(next);
  };
  // First row shown; undefined: follow the tail.
  const [top, setTop] = useState<number>();
  const [wrap, setWrap] = useState(false);
  const [matchLine, setMatchLine] = useState<number>();
  // Its keys go to it only while it is open (its own ref says so), so it may listen whenever the pane is focused.
  const search = useFilterInput(focused);
  // The geometry of the last frame, for keys: rows of text, rows shown.
  const layout = useRef({rows: [] as Row[], bodyRows: 1, matches: [] as number[]});

  const maxTop = () => Math.max(0, layout.current.rows.length - layout.current.bodyRows);
  const scrollTo = (next: number) => setTop(next >= maxTop() ? undefined : Math.max(0, next));
  const scrollBy = (step: number) => setTop((current) => ((current ?? maxTop()) + step >= maxTop() ? undefined : Math.max(0, (current ?? maxTop()) + step)));
  const showLine = (line: number) => {
    setMatchLine(line);
    const row = layout.current.rows.findIndex((candidate) => candidate.line === line);
    if (row >= 0) scrollTo(Math.max(0, row - Math.floor(layout.current.bodyRows / 2)));
  };
  const jumpMatch = (older: boolean) => {
    const {matches} = layout.current;
    if (matches.length === 0) return;
    const from = matchLine ?? Number.POSITIVE_INFINITY;
    const next = older ? matches.filter((line) => line < from).at(-1) : matches.find((line) => line > from);
    showLine(next ?? (older ? matches.at(-1)! : matches[0]!));
  };

  // A search just applied (Enter): show its newest match.
  const applied = search.editing ? '' : search.text.trim();
  useEffect(() => {
    const newest = layout.current.matches.at(-1);
    if (applied && newest !== undefined) showLine(newest);
    // showLine reads the last frame through a ref.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [applied]);

  useKeypress(
    (press) => {
      if (!readingRef.current) return false;
      if (matchesCommand(Command.BACK, press)) {
        if (search.text) {
          search.clear();
          setMatchLine(undefined);
        } else setReading(false);
      } else if (matchesCommand(Command.UP, press)) scrollBy(-1);
      else if (matchesCommand(Command.DOWN, press)) scrollBy(1);
      else if (matchesCommand(Command.PAGE_UP, press)) scrollBy(-Math.max(1, layout.current.bodyRows - 1));
      else if (matchesCommand(Command.PAGE_DOWN, press)) scrollBy(Math.max(1, layout.current.bodyRows - 1));
      else if (matchesCommand(Command.OUTPUT_TOP, press)) setTop(0);
      else if (matchesCommand(Command.OUTPUT_BOTTOM, press)) setTop(undefined);
      else if (matchesCommand(Command.OUTPUT_WRAP, press)) setWrap((current) => !current);
      else if (matchesCommand(Command.OUTPUT_SEARCH, press)) {
        setMatchLine(undefined);
        search.open();
      } else if (matchesCommand(Command.OUTPUT_NEXT_MATCH, press)) jumpMatch(true);
      else if (matchesCommand(Command.OUTPUT_PREV_MATCH, press)) jumpMatch(false);
      else return false;
      return true;
    },
    {isActive: focused && !search.editing, priority: KeyPriority.PANE + 1},
  );

  const view: OutputReader['view'] = ({process, lines, error, width, height, focused: paneFocused}) => {
    if (!process) return <Box width={width} height={height} />;
    const term = search.text.trim().toLowerCase();
    const matches = term ? lines.flatMap((line, index) => (stripAnsi(line).toLowerCase().includes(term) ? [index] : [])) : [];
    const rows: Row[] = lines.flatMap((line, index) => (wrap ? wrapLine(line, width) : [line]).map((text) => ({line: index, text})));
    const searchRows = search.editing || search.text ? 1 : 0;
    const bodyRows = Math.max(1, height - 1 - (error ? 1 : 0) - searchRows);
    layout.current = {rows, bodyRows, matches};
    const start = top === undefined ? Math.max(0, rows.length - bodyRows) : Math.min(top, Math.max(0, rows.length - bodyRows));
    const shown = rows.slice(start, start + bodyRows);
    const following = top === undefined || start + bodyRows >= rows.length;

    const header = [shownProcessId(process.id), process.command, process.cwd].filter(Boolean).join(' · ');
    const state = following ? (reading ? 'following' : '') : `paused ${start + shown.length}/${rows.length} · ${keyLabel(Command.OUTPUT_BOTTOM)} follows`;
    const flags = [state, wrap ? 'wrap' : '', term ? `${matches.length} match${matches.length === 1 ? '' : 'es'}` : ''].filter(Boolean).join(' · ');
    return (
      <Box width={width} height={height} flexDirection="column" overflowY="hidden">
        <Box height={1} width={width}>
          <Box flexGrow={1} flexShrink={1} overflowY="hidden">
            <Text dimColor wrap="truncate-end">
              {header}
            </Text>
          </Box>
          {flags && (
            <Box flexShrink={0} marginLeft={1}>
              <Text color={following ? undefined : 'yellow'} inverse={!following} dimColor={following}>
                {flags}
              </Text>
            </Box>
          )}
        </Box>
        {searchRows > 0 && <SearchLine search={search} width={width} focused={paneFocused} />}
        {error && <MessageLine message={{kind: 'error', text: error}} width={width} />}
        {shown.length === 0 && !error && <Text dimColor>(no output yet)</Text>}
        <OutputRows rows={shown} term={term} matches={matches} matchLine={matchLine} />
      </Box>
    );
  };

  return {
    reading,
    readingNow: () => readingRef.current,
    open: () => setReading(true),
    search,
    view,
  };
}

interface OutputRowsProps {
  rows: Row[];
  term: string;
  matches: number[];
  matchLine: number | undefined;
}

/** Rows of the pane's width (the column it sits in), each cut at the edge; a match of the search highlighted. */
function OutputRowsOf({rows, term, matches, matchLine}: OutputRowsProps): React.JSX.Element {
  return (
    <>
      {rows.map((row, index) =>
        term && matches.includes(row.line) ? (
          <Highlighted key={index} text={stripAnsi(row.text)} term={term} current={row.line === matchLine} />
        ) : (
          <Text key={index} wrap="truncate-end">
            {row.text === '' ? ' ' : row.text}
          </Text>
        ),
      )}
    </>
  );
}

const sameNumbers = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((value, index) => value === b[index]);

// A key that moves the process list redraws the pane, not the output beside it: its rows are drawn
// again only when one of them (or the search) differs.
const OutputRows = React.memo(
  OutputRowsOf,
  (before, after) =>
    before.term === after.term &&
    before.matchLine === after.matchLine &&
    sameNumbers(before.matches, after.matches) &&
    before.rows.length === after.rows.length &&
    before.rows.every((row, index) => row.text === after.rows[index]!.text && row.line === after.rows[index]!.line),
);

function SearchLine({search, width}: {search: FilterInputState; width: number; focused: boolean}): React.JSX.Element {
  return (
    <Box width={width} height={1}>
      <Text wrap="truncate-start">
        <Text color="cyan">{search.editing ? 'search /' : 'search: '}</Text>
        {search.editing ? <InputLine state={search.input} /> : search.text}
        <Text dimColor>
          {search.editing
            ? ` ${keyLine('global', 'filter')}`
            : ` (${keyLine('processes', 'output', {only: [Command.OUTPUT_NEXT_MATCH, Command.OUTPUT_PREV_MATCH]})} · ${lineLabel(Command.BACK)} clear)`}
        </Text>
      </Text>
    </Box>
  );
}

/** A matching line, plain, with each match inverse (the current match also bold and yellow). */
function Highlighted({text, term, current}: {text: string; term: string; current: boolean}): React.JSX.Element {
  const parts: React.ReactNode[] = [];
  const lower = text.toLowerCase();
  let index = 0;
  for (let found = lower.indexOf(term); found !== -1; found = lower.indexOf(term, found + term.length)) {
    if (found > index) parts.push(text.slice(index, found));
    parts.push(
      <Text key={found} inverse bold={current} color={current ? 'yellow' : undefined}>
        {text.slice(found, found + term.length)}
      </Text>,
    );
    index = found + term.length;
  }
  parts.push(text.slice(index));
  return <Text wrap="truncate-end">{parts}</Text>;
}
