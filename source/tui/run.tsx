import React from 'react';
import {render, type Instance} from 'ink';
import {WorkbenchError} from '../core/errors.js';
import type {TuiPorts} from './ports/index.js';
import {App} from './app.js';
import {enterFullScreen} from './terminal/fullScreen.js';
import {dedupeFrames} from './terminal/frameWriter.js';
import {colourlessStream, noColorRequested} from './terminal/noColor.js';

export interface RunTuiOptions {
  title?: string;
  stdout?: NodeJS.WriteStream;
  stdin?: NodeJS.ReadStream;
  /** Route console.* through ink so stray logs do not tear the frame (default true). */
  patchConsole?: boolean;
}

// Signals that end the TUI like q does; the processes stay with the daemon.
const QUIT_SIGNALS: NodeJS.Signals[] = ['SIGTERM', 'SIGHUP'];

/**
 * Runs the full-screen TUI until the user quits. The terminal is restored on every way out:
 * quit, Ctrl-C, a render error, SIGTERM/SIGHUP, or an uncaught exception.
 */
export async function runTui(ports: TuiPorts, options: RunTuiOptions = {}): Promise<void> {
  const terminal = options.stdout ?? process.stdout;
  // NO_COLOR: every frame goes out without colour sequences, through the terminal's own write.
  const stdout = noColorRequested() ? colourlessStream(terminal) : terminal;
  const stdin = options.stdin ?? process.stdin;
  if (!stdin.isTTY) {
    throw new WorkbenchError('invalid_argument', 'the TUI needs an interactive terminal (stdin is not a TTY); use the subcommands instead, e.g. `workbench proc list`');
  }

  // The wheel scrolls the focused pane; M gives the mouse back to the terminal to select text.
  const screen = stdout.isTTY ? enterFullScreen(stdout, {mouse: true}) : undefined;
  // A render writes only the lines that changed (an idle TUI costs no terminal output). It patches
  // the stream ink writes to: with NO_COLOR the colourless one, whose own write it then wraps.
  const restoreWrites = terminal.isTTY ? dedupeFrames(stdout) : () => {};
  let instance: Instance;
  try {
    instance = render(<App ports={ports} title={options.title} mouseCapture={screen !== undefined} onMouseCapture={(on) => screen?.setMouse(on)} />, {
      stdout,
      stdin,
      exitOnCtrlC: false,
      patchConsole: options.patchConsole ?? true,
      // ink holds a frame asked for within 1000/maxFps ms of the last one: at its default 30, a key
      // pressed just after a data frame waits up to 33 ms before its own frame starts. Data frames
      // are already gathered (daemonWatch, deliveries), so a shorter hold costs nothing when idle.
      maxFps: 120,
    });
  } catch (error) {
    restoreWrites();
    screen?.leave();
    throw error;
  }

  // Ink draws its last frame when it unmounts: do that before leaving the alternate screen,
  // or the frame lands on the user's shell.
  const restore = () => {
    instance.unmount();
    restoreWrites();
    screen?.leave();
  };
  // 'exit' also fires (before the error is printed) when an uncaught exception ends the process.
  process.once('exit', restore);

  let caughtSignal: NodeJS.Signals | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    caughtSignal = signal;
    instance.unmount();
  };
  for (const signal of QUIT_SIGNALS) process.on(signal, onSignal);

  try {
    await instance.waitUntilExit();
  } finally {
    for (const signal of QUIT_SIGNALS) process.off(signal, onSignal);
    instance.cleanup();
    restore();
    process.off('exit', restore);
  }
  if (caughtSignal) {
    // We took the signal over to restore the screen; now let it end the process as it would
    // have, and do not return to a caller that would carry on as if the user had quit.
    process.kill(process.pid, caughtSignal);
    await new Promise<never>(() => {});
  }
}
