import {useRef} from 'react';
import {usePorts} from '../contexts/PortsContext.js';
import {useSnapshot} from '../contexts/SnapshotContext.js';
import {useKeypress} from '../hooks/useKeypress.js';
import {matchesCommand, Command} from '../key/keyBindings.js';
import {KeyPriority} from '../key/keyPriority.js';
import {DAEMON_STOPPED} from '../ports/tuiContext.js';

/**
 * While the daemon is stopped (`workbench daemon stop` with the TUI open) the status bar says
 * `daemon stopped — press r to start`; this is that `r`, before any pane's own `r`. Draws nothing.
 */
export function DaemonStartKey(): null {
  const {status} = usePorts();
  const snapshot = useSnapshot();
  const starting = useRef(false);
  const stopped = snapshot.descriptionError === DAEMON_STOPPED && status.startDaemon !== undefined;
  useKeypress(
    (press) => {
      if (!matchesCommand(Command.START_DAEMON, press)) return false;
      if (!starting.current) {
        starting.current = true;
        void status.startDaemon!()
          .catch(() => undefined)
          .finally(() => {
            starting.current = false;
            snapshot.refreshProcesses();
            snapshot.refreshErrors();
          });
      }
      return true;
    },
    {isActive: stopped, priority: KeyPriority.PANE + 5},
  );
  return null;
}
