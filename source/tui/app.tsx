import React, {useEffect, useMemo, useState} from 'react';
import {Box, useApp, useStdin, useStdout} from 'ink';
import type {TuiPorts} from './ports/index.js';
import {panes as registeredPanes} from './panes/registry.js';
import {paneTitle, type PaneDefinition} from './panes/types.js';
import {KeypressProvider} from './contexts/KeypressContext.js';
import {PortsContext} from './contexts/PortsContext.js';
import {SnapshotProvider, useSnapshot} from './contexts/SnapshotContext.js';
import {UIStateContext, type UIState} from './contexts/UIStateContext.js';
import {UIActionsContext, type UIActions} from './contexts/UIActionsContext.js';
import {useKeypress} from './hooks/useKeypress.js';
import {useTerminalSize} from './hooks/useTerminalSize.js';
import {ClockProvider} from './hooks/useNow.js';
import {batchedDeliveries, DeliveriesContext} from './hooks/deliveries.js';
import {Command, focusPaneNumber, matchesCommand} from './key/keyBindings.js';
import {KeyPriority} from './key/keyPriority.js';
import {stackHeights} from './layouts/stackHeights.js';
import {PaneTabs} from './components/PaneTabs.js';
import {PaneFrame, FRAME_COLUMNS, FRAME_ROWS} from './components/PaneFrame.js';
import {StatusBar} from './components/StatusBar.js';
import {HelpOverlay} from './components/HelpOverlay.js';
import {DaemonStartKey} from './components/DaemonStartKey.js';
import {openDashboard} from './terminal/dashboard.js';

/** Below this the panes no longer fit side by side: one pane at a time. */
export const COMPACT_BELOW = {columns: 80, rows: 24};
// Tabs row on top, status bar below.
const CHROME_ROWS = 2;

export interface AppProps {
  /** How the panes reach the rest of workbench (source/tui/ports). */
  ports: TuiPorts;
  title?: string;
  /** Panes in tab order; the registry's by default. */
  panes?: PaneDefinition[];
  /** Called when the user quits, before ink exits. */
  onQuit?: () => void;
  /** Mouse capture at start (the wheel scrolls); `M` toggles it and calls onMouseCapture. */
  mouseCapture?: boolean;
  onMouseCapture?: (on: boolean) => void;
}

function Shell({
  title,
  panes,
  onQuit,
  mouseCapture = false,
  onMouseCapture,
}: Required<Pick<AppProps, 'title' | 'panes'>> & Pick<AppProps, 'onQuit' | 'mouseCapture' | 'onMouseCapture'>): React.JSX.Element {
  const {exit} = useApp();
  const {stdin} = useStdin();
  const {stdout} = useStdout();
  const snapshot = useSnapshot();
  const size = useTerminalSize();
  const compact = size.columns < COMPACT_BELOW.columns || size.rows < COMPACT_BELOW.rows;
  const [focusedPaneId, setFocusedPaneId] = useState<string>(panes[0]?.id ?? '');
  const [helpOpen, setHelpOpen] = useState(false);
  const [zoomed, setZoomed] = useState(false);
  const [mouse, setMouse] = useState(mouseCapture);
  const [hints, setHints] = useState<string[]>();
  const focusedIndex = Math.max(
    0,
    panes.findIndex((pane) => pane.id === focusedPaneId),
  );
  const focusedPane = panes[focusedIndex];

  const actions = useMemo<UIActions>(() => {
    const cycle = (step: number) =>
      setFocusedPaneId((current) => {
        const index = panes.findIndex((pane) => pane.id === current);
        return panes[(index + step + panes.length) % panes.length]?.id ?? current;
      });
    return {
      focusPane: (id) => setFocusedPaneId(id),
      focusNextPane: () => cycle(1),
      focusPreviousPane: () => cycle(-1),
      openHelp: () => setHelpOpen(true),
      closeHelp: () => setHelpOpen(false),
      quit: () => {
        onQuit?.();
        exit();
      },
      setHints,
    };
  }, [panes, exit, onQuit]);

  // Ctrl-C quits from anywhere, even from an input or an overlay.
  useKeypress((press) => (matchesCommand(Command.FORCE_QUIT, press) ? (actions.quit(), true) : false), {isActive: true, priority: KeyPriority.CRITICAL});

  // Lowest priority: a pane, an input or an overlay sees the key first.
  useKeypress(
    (press) => {
      const number = focusPaneNumber(press);
      if (matchesCommand(Command.QUIT, press)) actions.quit();
      else if (matchesCommand(Command.HELP, press)) actions.openHelp();
      else if (matchesCommand(Command.NEXT_PANE, press)) actions.focusNextPane();
      else if (matchesCommand(Command.PREV_PANE, press)) actions.focusPreviousPane();
      else if (number !== undefined && panes[number - 1]) actions.focusPane(panes[number - 1]!.id);
      // Lowest priority: a pane with a `z` of its own (Feeds: snooze) has taken it already.
      else if (matchesCommand(Command.ZOOM, press)) setZoomed((current) => !current);
      else if (matchesCommand(Command.DASHBOARD, press)) openDashboard({stdin, stdout});
      else if (matchesCommand(Command.MOUSE, press))
        setMouse((current) => {
          onMouseCapture?.(!current);
          return !current;
        });
      else return false;
      return true;
    },
    {isActive: !helpOpen, priority: KeyPriority.GLOBAL},
  );

  const state = useMemo<UIState>(() => ({panes, focusedPaneId: focusedPane?.id ?? '', helpOpen, size, compact, zoomed}), [panes, focusedPane, helpOpen, size, compact, zoomed]);
  // Zoomed: no tabs row, the focused pane takes every row but the status bar.
  const bodyHeight = Math.max(0, size.rows - (zoomed ? 1 : CHROME_ROWS));
  const heights = compact || zoomed ? panes.map((_, index) => (index === focusedIndex ? bodyHeight : 0)) : stackHeights(panes.length, focusedIndex, bodyHeight);

  return (
    <UIStateContext.Provider value={state}>
      <UIActionsContext.Provider value={actions}>
        <Box width={size.columns} height={size.rows} flexDirection="column" overflowY="hidden">
          {!zoomed && <PaneTabs panes={panes} focusedPaneId={focusedPane?.id ?? ''} title={title} width={size.columns} />}
          <Box width={size.columns} height={bodyHeight} flexDirection="column" overflowY="hidden">
            {helpOpen && focusedPane && <HelpOverlay pane={focusedPane} width={size.columns} height={bodyHeight} compact={compact} onClose={actions.closeHelp} />}
            {panes.map((pane, index) => {
              const height = heights[index] ?? 0;
              const focused = index === focusedIndex && !helpOpen;
              // Hidden panes stay mounted (display none) so they keep selection and filter.
              const display = height > 0 && !helpOpen ? 'flex' : 'none';
              const Pane = pane.Component;
              return (
                <Box key={pane.id} display={display} flexShrink={0}>
                  {compact ? (
                    <Pane focused={focused} width={size.columns} height={height} compact />
                  ) : (
                    <PaneFrame number={index + 1} title={paneTitle(pane, snapshot)} focused={index === focusedIndex} width={size.columns} height={height}>
                      <Pane focused={focused} width={Math.max(0, size.columns - FRAME_COLUMNS)} height={Math.max(0, height - FRAME_ROWS)} compact={false} />
                    </PaneFrame>
                  )}
                </Box>
              );
            })}
          </Box>
          <StatusBar width={size.columns} compact={compact} helpOpen={helpOpen} hints={hints} zoomed={zoomed} mouse={mouse || !mouseCapture} />
        </Box>
      </UIActionsContext.Provider>
    </UIStateContext.Provider>
  );
}

/** The full-screen workbench: pane tabs, the panes, a status bar; quits on q or Ctrl-C. */
export function App({ports, title = 'workbench', panes = registeredPanes, onQuit, mouseCapture, onMouseCapture}: AppProps): React.JSX.Element {
  // Answers of fetches started together (an output line and the alert in it) render as one frame.
  const [deliveries] = useState(() => batchedDeliveries());
  useEffect(() => () => deliveries.close(), [deliveries]);
  return (
    <PortsContext.Provider value={ports}>
      <DeliveriesContext.Provider value={deliveries}>
        <KeypressProvider>
          <SnapshotProvider>
            <ClockProvider>
              <DaemonStartKey />
              <Shell title={title} panes={panes} onQuit={onQuit} mouseCapture={mouseCapture} onMouseCapture={onMouseCapture} />
            </ClockProvider>
          </SnapshotProvider>
        </KeypressProvider>
      </DeliveriesContext.Provider>
    </PortsContext.Provider>
  );
}
