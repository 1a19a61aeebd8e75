import React from 'react';
import {Box, Text} from 'ink';
import {toTerminalLine} from '../../../text/terminal-safe.js';
import type {GqlExecuteResult} from '../../../gql/types.js';
import {treeRowText, type TreeRow} from './resultTree.js';

export type RunState =
  | {state: 'idle'}
  | {state: 'running'}
  // A subscription's results arrive in `result` as they commit (newest first) while `live` is set.
  // `label` titles a result that is not a query's (the database's chat conversations).
  | {state: 'done'; result: GqlExecuteResult; ms: number; live?: {events: number; ended?: string}; label?: string}
  // The query never reached GraphQL: no server, the database gone, bad variables.
  | {state: 'failed'; error: string};

/** How many of a result's errors are listed above its tree; the rest are counted. */
export const ERRORS_SHOWN = 4;

/** A GraphQL error as one line: its message and where in the result it happened. */
export function errorLine(error: NonNullable<GqlExecuteResult['errors']>[number]): string {
  const where = error.path?.length ? ` (at ${error.path.join('.')})` : '';
  return toTerminalLine(`${error.message}${where}`);
}

export function errorRowsOf(run: RunState): number {
  if (run.state !== 'done' || !run.result.errors?.length) return 0;
  return Math.min(ERRORS_SHOWN, run.result.errors.length) + (run.result.errors.length > ERRORS_SHOWN ? 1 : 0);
}

/** The result: its errors in red on top, then the data as a tree with the selected row marked. */
export function ResultView({
  run,
  rows,
  selected,
  start,
  active,
  width,
  height,
}: {
  run: RunState;
  rows: TreeRow[];
  selected: number;
  start: number;
  active: boolean;
  width: number;
  height: number;
}): React.JSX.Element {
  const errors = run.state === 'done' ? (run.result.errors ?? []) : [];
  const errorRows = errorRowsOf(run);
  const treeHeight = Math.max(0, height - errorRows);
  return (
    <Box width={width} height={height} flexDirection="column" overflowY="hidden">
      {run.state === 'idle' && <Text dimColor>no result yet · ctrl-r (or r here) runs the query</Text>}
      {run.state === 'running' && <Text dimColor>running…</Text>}
      {run.state === 'failed' && (
        <Text color="red" wrap="wrap">
          ! {toTerminalLine(run.error)}
        </Text>
      )}
      {errors.slice(0, ERRORS_SHOWN).map((error, index) => (
        <Box key={`error-${index}`} height={1} width={width}>
          <Text color="red" wrap="truncate-end">
            ! error: {errorLine(error)}
          </Text>
        </Box>
      ))}
      {errors.length > ERRORS_SHOWN && (
        <Text color="red" dimColor>
          … {errors.length - ERRORS_SHOWN} more errors
        </Text>
      )}
      {run.state === 'done' && rows.length === 0 && !errors.length && <Text dimColor>no data</Text>}
      <Box width={width} height={treeHeight} flexDirection="column" overflowY="hidden">
        {rows.slice(start, start + treeHeight).map((row, offset) => {
          const index = start + offset;
          const isSelected = index === selected;
          return (
            <Box key={row.path || '(root)'} height={1} width={width}>
              <Text inverse={isSelected && active} bold={isSelected} dimColor={row.kind === 'scalar' && row.text === 'null'} wrap="truncate-end">
                {treeRowText(row)}
              </Text>
            </Box>
          );
        })}
      </Box>
    </Box>
  );
}

/** The result's title: `Result · 12 ms · 1 error`, a live subscription's count of changes, or a labelled result's name. */
export function resultTitle(run: RunState): string {
  if (run.state !== 'done') return 'Result';
  const errorCount = run.result.errors?.length ? ` · ${run.result.errors.length} error${run.result.errors.length === 1 ? '' : 's'}` : '';
  if (!run.live) return `${run.label ?? 'Result'} · ${run.ms} ms${errorCount}`;
  const {events, ended} = run.live;
  const state = ended ? ` · ${ended === 'ended' || ended === 'stopped' ? ended : 'ended'}` : ' · s stops';
  return `Result · live · ${events} change${events === 1 ? '' : 's'}${state}${errorCount}`;
}
