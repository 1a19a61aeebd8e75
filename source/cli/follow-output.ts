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
 * it prints it, until Ctrl-C — or until the process ends, with a line that says how. Events are
 * held until the ring's answer is in; then those it already holds (`end` at or below the answer's)
 * are dropped and the rest printed, so nothing is printed twice or missed — whichever of the two
 * this process handles first.
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
    // Bytes of output the ring's answer holds; undefined until it is in.
    let shownEnd: number | undefined = undefined;
    const early: {data: string; end: number}[] = [];
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
        if (shownEnd === undefined) early.push(event);
        else if (event.end > shownEnd && !(last && ended(last))) write(stripAnsi(event.data));
      },
      {id},
    );
    await client.subscribe('processes', (event) => {
      if (shownEnd !== undefined && event.process.id === id) finish(event.process);
    });
    const {output, end} = await client.call('proc.output', {id, tail: options.tail});
    if (output) write(output);
    shownEnd = end;
    for (const event of early.splice(0)) if (event.end > end) write(stripAnsi(event.data));
    // Asked after the ring: an exit that came in between is in it, and in this answer.
    finish(await client.call('proc.get', {id}));
    await Promise.race([finished, client.closedPromise().then(() => write((atLineStart ? '' : '\n') + '── the daemon stopped ──\n'))]);
    return {stdout: ''};
  } finally {
    context.close();
  }
}
