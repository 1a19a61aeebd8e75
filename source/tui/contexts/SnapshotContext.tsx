import React, {createContext, useContext, useMemo} from 'react';
import type {ProcessInfo} from '../../processes/types.js';
import type {UnifiedError} from '../../incidents/types.js';
import type {TuiBackend} from '../backend.js';
import {usePolling} from '../hooks/usePolling.js';

/** Incidents the pane and the status bar show (errors and warnings, as `get-errors --limit 200`). */
export const INCIDENT_LIMIT = 200;

/** What several parts of the screen show at once, polled once for all of them. */
export interface Snapshot {
  processes: ProcessInfo[] | undefined;
  processesError: string | undefined;
  errors: UnifiedError[] | undefined;
  errorsError: string | undefined;
  description: string | undefined;
  descriptionError: string | undefined;
  pollIntervalMs: number;
  refreshProcesses(): void;
  refreshErrors(): void;
}

const SnapshotContext = createContext<Snapshot | undefined>(undefined);

export function SnapshotProvider({backend, pollIntervalMs, children}: {backend: TuiBackend; pollIntervalMs: number; children: React.ReactNode}): React.JSX.Element {
  const processes = usePolling(() => backend.listProcesses(), pollIntervalMs, [backend]);
  const errors = usePolling(() => backend.getErrors({limit: INCIDENT_LIMIT, include_warnings: true}), pollIntervalMs, [backend]);
  // The description changes rarely (daemon state, project): poll it less often.
  const description = usePolling(() => backend.describe(), pollIntervalMs * 4, [backend]);

  const snapshot = useMemo<Snapshot>(
    () => ({
      processes: processes.data,
      processesError: processes.error,
      errors: errors.data,
      errorsError: errors.error,
      description: description.data,
      descriptionError: description.error,
      pollIntervalMs,
      refreshProcesses: processes.refresh,
      refreshErrors: errors.refresh,
    }),
    // refresh functions are stable in behaviour; data and errors decide re-renders.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [processes.data, processes.error, errors.data, errors.error, description.data, description.error, pollIntervalMs],
  );
  return <SnapshotContext.Provider value={snapshot}>{children}</SnapshotContext.Provider>;
}

export function useSnapshot(): Snapshot {
  const snapshot = useContext(SnapshotContext);
  if (!snapshot) throw new Error('useSnapshot needs a SnapshotProvider above it');
  return snapshot;
}
