import React, {useState} from 'react';
import {Box, Text} from 'ink';
import {Command, keyLabel, matchesCommand} from '../key/keyBindings.js';
import {KeyPriority} from '../key/keyPriority.js';
import {useKeypress} from '../hooks/useKeypress.js';
import {keyHelpDescription, keyHelpLabel, type KeyHelp, type PaneDefinition} from '../panes/types.js';

/** Keys every pane has; the descriptions come from the bindings. */
export const GLOBAL_KEYS: KeyHelp[] = [
  {command: Command.NEXT_PANE},
  {command: Command.PREV_PANE},
  {command: Command.FOCUS_PANE_N},
  {command: Command.ZOOM},
  {command: Command.MOUSE},
  {command: Command.DASHBOARD},
  {command: Command.HELP},
  {command: Command.QUIT},
  {command: Command.FORCE_QUIT},
];

type HelpRow = {kind: 'title' | 'blank'; text: string} | {kind: 'key'; label: string; description: string};

function helpRows(pane: PaneDefinition, compact: boolean): HelpRow[] {
  const section = (keys: KeyHelp[]): HelpRow[] =>
    keys.map((help) => ('heading' in help ? {kind: 'title', text: help.heading} : {kind: 'key', label: keyHelpLabel(help), description: keyHelpDescription(help)}));
  const blank: HelpRow[] = compact ? [] : [{kind: 'blank', text: ''}];
  return [{kind: 'title', text: `Keys — ${pane.title}`}, ...section(pane.keys), ...blank, {kind: 'title', text: 'Everywhere'}, ...section(GLOBAL_KEYS)];
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
  pane: PaneDefinition;
  width: number;
  height: number;
  compact: boolean;
  onClose: () => void;
}): React.JSX.Element {
  const rows = helpRows(pane, compact);
  // Border 2 rows, footer 1.
  const visible = Math.max(1, Math.min(rows.length, height - 3));
  const maxTop = Math.max(0, rows.length - visible);
  const [top, setTop] = useState(0);
  const scroll = (next: (current: number) => number) => setTop((current) => Math.max(0, Math.min(maxTop, next(current))));
  useKeypress(
    (press) => {
      if (press.name === 'escape' || press.input === '?' || press.input === 'q') onClose();
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
    ? `${start + 1}-${start + shown.length} of ${rows.length} · ${keyLabel(Command.UP)} ${keyLabel(Command.DOWN)} ${keyLabel(Command.PAGE_UP)} ${keyLabel(Command.PAGE_DOWN)} scroll · ? or esc closes`
    : '? or esc closes';
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
