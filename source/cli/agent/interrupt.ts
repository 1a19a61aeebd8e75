import type {ChatSession} from '../../agent/types.js';

/**
 * Ctrl-C during a turn (`workbench agent`, `workbench acp`): the first cancels it (the model
 * request, a running command, the agent's turn), a second closes the session and quits (130, the
 * shell's code for SIGINT). Returns the undo.
 */
export function cancelOnInterrupt(session: ChatSession): () => void {
  let interrupts = 0;
  const interrupt = () => {
    interrupts += 1;
    if (interrupts === 1) session.cancel();
    else void session.close().finally(() => process.exit(130));
  };
  process.on('SIGINT', interrupt);
  return () => process.off('SIGINT', interrupt);
}
