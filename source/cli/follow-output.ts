import type {ProcessInfo} from '../processes/types.js';
import {stripAnsi} from '../text/ansi.js';
import {createToolContext} from '../tools/context.js';
import type {CommandResult} from './command-output.js';

const ended = (info: ProcessInfo) => info.status !== 'running' && info.status !== 'starting';

function exitLine(info: ProcessInfo): string {
  const how = info.status === 'crashed' ? `crashed (${info.signal ?? 'signal'})` : info.status === 'stopped' ? 'stopped' : `exited ${info.exitCode ?? ''}`.trim();
  return `── ${info.id} ${how} ──\n`;
}

/**
 * `workbench proc output <id> --follow`: the ring (or its tail), then what the process prints as
 * it prints it, until Ctrl-C — or until the process ends, with a line that says how. Output
 * events that reach this connection before the ring's answer are in that answer already (the
 * daemon answers and pushes in order), so nothing is printed twice or missed.
 */
export async function followOutput(id: string, options: {tail?: number; write?: (text: string) => void} = {}): Promise<CommandResult> {
  const out = options.write ?? ((text: string) => void process.stdout.write(text));
  let atLineStart = true;
  const write = (text: string) => {
    if (text === '') return;
    atLineStart = text.endsWith('\n');
    out(text);
  };
  const context = createToolContext();
  try {
    const client = await context.daemon();
    let snapshotTaken = false;
    let done!: () => void;
    const finished = new Promise<void>((resolve) => (done = resolve));
    let last: ProcessInfo | undefined;
    const finish = (info: ProcessInfo) => {
      if (last && ended(last)) return;
      last = info;
      if (!ended(info)) return;
      write((atLineStart ? '' : '\n') + exitLine(info));
      done();
    };
    await client.subscribe(
      'output',
      (event) => {
        if (snapshotTaken && !(last && ended(last))) write(stripAnsi(event.data));
      },
      {id},
    );
    await client.subscribe('processes', (event) => {
      if (snapshotTaken && event.process.id === id) finish(event.process);
    });
    const {output} = await client.call('proc.output', {id, tail: options.tail});
    if (output) write(output);
    snapshotTaken = true;
    // Asked after the ring: an exit that came in between is in it, and in this answer.
    finish(await client.call('proc.get', {id}));
    await Promise.race([finished, client.closedPromise().then(() => write((atLineStart ? '' : '\n') + '── the daemon stopped ──\n'))]);
    return {stdout: ''};
  } finally {
    context.close();
  }
}
