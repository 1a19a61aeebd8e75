import React, {useState} from 'react';
import {Box, Text} from 'ink';
import {Command, matchesCommand} from '../key/keyBindings.js';
import {KeyPriority} from '../key/keyPriority.js';
import {barHints, keyViews, rowDescription, rowLabel, type KeyScope} from '../key/keyTable.js';
import {useKeypress} from '../hooks/useKeypress.js';

export type HelpRow = {kind: 'title' | 'blank'; text: string} | {kind: 'key'; label: string; description: string};

/** The help of a pane: its views' rows of the key table, then the global ones. */
export function helpRows(scope: KeyScope, title: string, compact: boolean): HelpRow[] {
  const section = (scope: KeyScope): HelpRow[] =>
    keyViews(scope)
      .filter((view) => view.inHelp !== false)
      .flatMap((view) => [
        ...(view.heading ? [{kind: 'title' as const, text: view.heading}] : []),
        ...view.rows.map((row) => ({kind: 'key' as const, label: rowLabel(row), description: rowDescription(row)})),
      ]);
  const blank: HelpRow[] = compact ? [] : [{kind: 'blank', text: ''}];
  return [{kind: 'title', text: `Keys — ${title}`}, ...section(scope), ...blank, ...section('global')];
}

/**
 * `?`: the focused pane's keys and the global ones, as wide as they need (up to the terminal),
 * scrolled with ↑↓ pgup pgdn home end when taller than the screen; `?`, Esc or q close it.
 */
export function HelpOverlay({
  pane,
  width,
  height,
  compact,
  onClose,
}: {
  pane: {id: KeyScope; title: string};
  width: number;
  height: number;
  compact: boolean;
  onClose: () => void;
}): React.JSX.Element {
  const rows = helpRows(pane.id, pane.title, compact);
  // Border 2 rows, footer 1.
  const visible = Math.max(1, Math.min(rows.length, height - 3));
  const maxTop = Math.max(0, rows.length - visible);
  const [top, setTop] = useState(0);
  const scroll = (next: (current: number) => number) => setTop((current) => Math.max(0, Math.min(maxTop, next(current))));
  useKeypress(
    (press) => {
      if (matchesCommand(Command.HELP_CLOSE, press)) onClose();
      else if (matchesCommand(Command.UP, press)) scroll((current) => current - 1);
      else if (matchesCommand(Command.DOWN, press)) scroll((current) => current + 1);
      else if (matchesCommand(Command.PAGE_UP, press)) scroll((current) => current - visible);
      else if (matchesCommand(Command.PAGE_DOWN, press)) scroll((current) => current + visible);
      else if (matchesCommand(Command.HOME, press)) scroll(() => 0);
      else if (matchesCommand(Command.END, press)) scroll(() => maxTop);
      // Other keys are held while the help is open.
      return true;
    },
    {isActive: true, priority: KeyPriority.OVERLAY},
  );
  const keyRows = rows.filter((row) => row.kind === 'key');
  const labelWidth = Math.max(...keyRows.map((row) => row.label.length)) + 2;
  const contentWidth = Math.max(...rows.map((row) => (row.kind === 'key' ? labelWidth + row.description.length : row.text.length)), 40);
  // Border and padding: 4 cells.
  const boxWidth = Math.min(width, contentWidth + 4);
  const start = Math.min(top, maxTop);
  const shown = rows.slice(start, start + visible);
  const scrollable = rows.length > visible;
  const footer = scrollable
    ? `${start + 1}-${start + shown.length} of ${rows.length} · ${barHints('global', 'help').join(' · ')}`
    : barHints('global', 'help', {only: [Command.HELP_CLOSE]}).join(' · ');
  return (
    <Box width={width} height={height} justifyContent="center" alignItems="flex-start" overflow="hidden">
      <Box width={boxWidth} flexDirection="column" borderStyle="round" borderColor="cyan" paddingX={1} overflow="hidden">
        {shown.map((row, index) =>
          row.kind === 'key' ? (
            <Box key={index} height={1}>
              <Box width={labelWidth} flexShrink={0}>
                <Text color="cyan">{row.label}</Text>
              </Box>
              <Text wrap="truncate-end">{row.description}</Text>
            </Box>
          ) : (
            <Box key={index} height={1}>
              <Text bold>{row.text || ' '}</Text>
            </Box>
          ),
        )}
        <Text dimColor wrap="truncate-end">
          {footer}
        </Text>
      </Box>
    </Box>
  );
}
