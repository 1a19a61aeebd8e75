import React, {createContext, useContext, useMemo} from 'react';
import type {ProcessInfo} from '../../processes/types.js';
import type {Incident} from '../../incidents/incidents.js';
import type {ProxyInfo} from '../../devproxy/types.js';
import {useWatched} from '../hooks/useWatched.js';
import {shownIncident, shownProcess} from '../text/shown.js';
import {DAEMON_STOPPED} from '../ports/tuiContext.js';
import {usePorts} from './PortsContext.js';

/** What several parts of the screen show at once, fetched once for all of them; its text is terminal-safe (text/shown.ts). */
export interface Snapshot {
  /** undefined while the daemon is stopped: what it ran ended with it (a failed call otherwise keeps the last list). */
  processes: ProcessInfo[] | undefined;
  processesError: string | undefined;
  /** As `workbench get-incidents` lists them: near-duplicates grouped, errors first, then newest; undefined while the daemon is stopped (its inbox ended with it). */
  errors: Incident[] | undefined;
  errorsError: string | undefined;
  description: string | undefined;
  descriptionError: string | undefined;
  /** The dev proxies the daemon runs (the Proxy pane, its title's count); undefined while it is stopped, as processes. */
  proxies: ProxyInfo[] | undefined;
  proxiesError: string | undefined;
  refreshProcesses(): void;
  refreshErrors(): void;
  refreshProxies(): void;
}

const SnapshotContext = createContext<Snapshot | undefined>(undefined);

export function SnapshotProvider({children}: {children: React.ReactNode}): React.JSX.Element {
  const ports = usePorts();
  // Commands, paths and messages come from outside: made terminal-safe here, where they enter the view.
  const processes = useWatched(async () => (await ports.processes.list()).map(shownProcess), ports.processes.watch, [ports.processes]);
  const errors = useWatched(async () => (await ports.incidents.list()).map(shownIncident), ports.incidents.watch, [ports.incidents]);
  const description = useWatched(() => ports.status.describe(), ports.status.watch, [ports.status]);
  const proxies = useWatched(() => ports.proxies.list(), ports.proxies.watch, [ports.proxies]);

  // `workbench daemon stop` stops its processes and proxies: the last lists it gave must not read as running.
  const live = <T,>(watched: {data: T | undefined; error: string | undefined}) => (watched.error === DAEMON_STOPPED ? undefined : watched.data);

  const snapshot = useMemo<Snapshot>(
    () => ({
      processes: live(processes),
      processesError: processes.error,
      errors: live(errors),
      errorsError: errors.error,
      description: description.data,
      descriptionError: description.error,
      proxies: live(proxies),
      proxiesError: proxies.error,
      refreshProcesses: processes.refresh,
      refreshErrors: errors.refresh,
      refreshProxies: proxies.refresh,
    }),
    // refresh functions are stable in behaviour; data and errors decide re-renders.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [processes.data, processes.error, errors.data, errors.error, description.data, description.error, proxies.data, proxies.error],
  );
  return <SnapshotContext.Provider value={snapshot}>{children}</SnapshotContext.Provider>;
}

export function useSnapshot(): Snapshot {
  const snapshot = useContext(SnapshotContext);
  if (!snapshot) throw new Error('useSnapshot needs a SnapshotProvider above it');
  return snapshot;
}
