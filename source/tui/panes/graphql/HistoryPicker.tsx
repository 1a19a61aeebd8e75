import React from 'react';
import {formatDate} from '../../../text/table.js';
import {toTerminalLine} from '../../../text/terminal-safe.js';
import {ChoicePicker} from '../../components/ChoicePicker.js';
import type {HistoryEntry} from './history.js';

/** A history entry as one picker row: the query folded onto a line, and when it ran. */
function historyRow(entry: HistoryEntry, index: number) {
  return {
    key: String(index),
    name: toTerminalLine(entry.query.replace(/\s+/g, ' ').trim()).slice(0, 60),
    detail: `${formatDate(entry.at)}${entry.variables.trim() ? ` · variables ${toTerminalLine(entry.variables.replace(/\s+/g, ' ')).slice(0, 60)}` : ''}`,
  };
}

/** The queries run, newest first, to put one back in the editor. */
export function HistoryPicker({
  history,
  focused,
  width,
  height,
  onPick,
  onClose,
}: {
  history: HistoryEntry[];
  focused: boolean;
  width: number;
  height: number;
  onPick: (entry: HistoryEntry) => void;
  onClose: () => void;
}): React.JSX.Element {
  return (
    <ChoicePicker
      title={{text: 'Query history', pick: 'puts it in the editor'}}
      loading="reading the history…"
      empty="no queries run yet"
      load={async () => history}
      row={(entry) => historyRow(entry, history.indexOf(entry))}
      focused={focused}
      width={width}
      height={height}
      onPick={onPick}
      onClose={onClose}
    />
  );
}
