import {useRef} from 'react';
import {useRefState} from '../../hooks/useRefState.js';
import {listWindowStart} from '../../layouts/listWindow.js';
import {containerPaths, parentPath, treeRows, type TreeRow} from './resultTree.js';

export interface ResultTree {
  /** The rows as the last key left them (the frame draws these too). */
  rows(): TreeRow[];
  /** The selected row's index, within the rows. */
  selected(): number;
  /** The first row of a window `height` rows high that keeps the selection in sight. */
  windowStart(height: number): number;
  /** A new result: everything open, the top row selected. */
  reset(): void;
  moveTo(index: number): void;
  moveBy(step: number): void;
  /** Enter/space: opens or closes the selected container; false on a scalar (the key is not used). */
  toggle(): boolean;
  /** ←: closes an open container, else goes to the one that holds the row; false with no rows. */
  left(): boolean;
  /** →: opens a closed container; false otherwise. */
  right(): boolean;
  /** Everything but the top: the answer's fields stay in sight, folded. False with no data. */
  closeAll(): boolean;
  openAll(): void;
}

/**
 * The result as a tree to scroll and fold: which containers are closed and which row is selected.
 * `data` is read through a getter and the closed set and selection through refs, so keys that come
 * faster than frames (`c` then `j`, a held j) each act on what the key before them left.
 */
export function useResultTree(data: () => unknown): ResultTree {
  const [, closed, setClosed] = useRefState<ReadonlySet<string>>(new Set());
  const [, selectedRef, setSelected] = useRefState(0);
  const start = useRef(0);
  // The rows of the last (data, closed) pair: one walk serves every key and frame until either changes.
  const cache = useRef<{data: unknown; closed: ReadonlySet<string>; rows: TreeRow[]}>(undefined);
  const rows = () => {
    const value = data();
    const cached = cache.current;
    if (cached && cached.data === value && cached.closed === closed()) return cached.rows;
    const rows = value === undefined || value === null ? [] : treeRows(value, closed(), 'data');
    cache.current = {data: value, closed: closed(), rows};
    return rows;
  };
  const selected = () => Math.max(0, Math.min(rows().length - 1, selectedRef()));
  const moveTo = (index: number) => setSelected(Math.max(0, Math.min(rows().length - 1, index)));
  const change = (path: string, close: boolean) =>
    setClosed((current) => {
      const next = new Set(current);
      if (close) next.add(path);
      else next.delete(path);
      return next;
    });
  const selectedRow = () => rows()[selected()];

  return {
    rows,
    selected,
    windowStart(height) {
      start.current = listWindowStart(selected(), rows().length, height, start.current);
      return start.current;
    },
    reset() {
      setClosed(new Set());
      setSelected(0);
      start.current = 0;
    },
    moveTo,
    moveBy: (step) => moveTo(selected() + step),
    toggle() {
      const row = selectedRow();
      if (!row || row.kind === 'scalar') return false;
      change(row.path, row.open);
      return true;
    },
    left() {
      const row = selectedRow();
      if (!row) return false;
      if (row.kind !== 'scalar' && row.open) change(row.path, true);
      else {
        const parent = parentPath(row.path);
        const at = rows().findIndex((candidate) => candidate.path === parent);
        if (at >= 0) moveTo(at);
      }
      return true;
    },
    right() {
      const row = selectedRow();
      if (!row || row.kind === 'scalar' || row.open) return false;
      change(row.path, false);
      return true;
    },
    closeAll() {
      const value = data();
      if (!value) return false;
      setClosed(new Set(containerPaths(value, 'data').filter((path) => path.split('.').length > 2)));
      moveTo(0);
      return true;
    },
    openAll: () => setClosed(new Set()),
  };
}
