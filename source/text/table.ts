import {toTerminalLine} from './terminal-safe.js';

/** Columns for people: each as wide as its widest cell, the last one left ragged; cells are made safe for a terminal. */
export function formatTable(headers: string[], rawRows: string[][]): string {
  const rows = rawRows.map((row) => row.map(toTerminalLine));
  const widths = headers.map((header, column) => Math.max(header.length, ...rows.map((row) => (row[column] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => (column === cells.length - 1 ? cell : cell.padEnd(widths[column]!)))
      .join('  ')
      .trimEnd();
  return [line(headers), ...rows.map(line)].join('\n') + '\n';
}

const pad = (value: number) => String(value).padStart(2, '0');

/** `2024-03-10 17:15` in local time; the raw text when it is no date. */
export function formatDate(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** One line of at most `width` characters, newlines folded, safe for a terminal. */
export function clip(text: string, width: number): string {
  const flat = toTerminalLine(text).replace(/\s+/g, ' ').trim();
  return flat.length > width ? flat.slice(0, Math.max(0, width - 1)) + '…' : flat;
}
