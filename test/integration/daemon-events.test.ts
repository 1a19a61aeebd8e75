import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {DaemonClient} from '../../source/daemon/client.js';
import type {DaemonEvents} from '../../source/daemon/protocol/index.js';
import {makeSandbox, runCli, type Sandbox} from '../helpers/cli.js';

let sandbox: Sandbox;
let client: DaemonClient | undefined;

beforeEach(async () => {
  sandbox = makeSandbox();
  expect((await runCli(['daemon', 'start'], {env: sandbox.env})).code).toBe(0);
  const {socket} = JSON.parse((await runCli(['daemon', 'status', '--json'], {env: sandbox.env})).stdout);
  client = await DaemonClient.connect(socket);
});

afterEach(async () => {
  client?.close();
  await sandbox.cleanup();
});

/** Resolves with the first event of a topic that passes `accept`. */
function next<T extends keyof DaemonEvents>(topic: T, accept: (event: DaemonEvents[T]) => boolean): Promise<DaemonEvents[T]> {
  return new Promise((resolve, reject) => {
    const unsubscribe = client!.subscribe(topic, (event) => {
      if (!accept(event)) return;
      void unsubscribe.then((off) => off()).catch(() => undefined);
      resolve(event);
    });
    unsubscribe.catch(reject);
  });
}

describe('the typed daemon protocol', () => {
  it('pushes processes and alerts events to subscribers, so no one polls', async () => {
    const seen: Array<DaemonEvents['processes']['process']['status']> = [];
    const offProcesses = await client!.subscribe('processes', ({process}) => {
      if (process.id === 'thrower') seen.push(process.status);
    });
    const exited = next('processes', ({process}) => process.id === 'thrower' && process.status === 'exited');
    const alerted = next('alerts', (event) => event.processId === 'thrower');
    const output: string[] = [];
    const ends: number[] = [];
    const offOutput = await client!.subscribe(
      'output',
      (event) => {
        output.push(event.data);
        ends.push(event.end);
      },
      {id: 'thrower'},
    );

    const started = await client!.call('proc.start', {cmd: `node -e "console.log('Error: boom from events'); process.exit(2)"`, id: 'thrower', cwd: sandbox.dir});
    expect(started).toMatchObject({id: 'thrower', status: 'running'});
    const {process} = await exited;
    expect(process).toMatchObject({id: 'thrower', status: 'exited', exitCode: 2});
    // The last output came before the event that says it ended.
    expect(output.join('')).toContain('Error: boom from events');
    // Each event says how many bytes the ring holds once it is in: a reader of the ring (proc
    // output --follow) drops the events its answer already has by this count.
    expect(ends).toEqual([...ends].sort((a, b) => a - b));
    const ring = await client!.call('proc.output', {id: 'thrower', raw: true});
    expect(ring.end).toBe(ends.at(-1));
    expect(ring.end).toBe(Buffer.byteLength(ring.output));
    expect(await alerted).toEqual({event: 'alerts', processId: 'thrower', project: client!.project, alerts: expect.any(Number)});
    expect(seen).toEqual(['running', 'exited']);
    const errors = await client!.call('errors.query', {process_id: 'thrower'});
    expect(errors).toContainEqual(expect.objectContaining({source: 'process:thrower', message: 'boom from events'}));

    await offProcesses();
    await offOutput();
    // Removing the process clears its alerts: the inbox changed again.
    const cleared = next('alerts', (event) => event.processId === 'thrower' && event.alerts === 0);
    await client!.call('proc.remove', {id: 'thrower'});
    expect((await cleared).alerts).toBe(0);
  });

  it('checks params with the same schemas the client is typed by', async () => {
    await expect(client!.call('proc.get', {id: ''})).rejects.toThrow(/^proc\.get: id: /);
    await expect(client!.call('events.subscribe', {topic: 'alerts', id: 'x'})).rejects.toThrow('only the output topic is per process');
    // @ts-expect-error -- not a topic: the compiler refuses it, and so does the daemon.
    await expect(client!.call('events.subscribe', {topic: 'weather'})).rejects.toThrow(/topic/);
    // @ts-expect-error -- proc.get needs an id.
    await expect(client!.call('proc.get')).rejects.toThrow(/id/);
    const ping = await client!.call('ping');
    expect(ping).toMatchObject({pid: expect.any(Number), version: 1, survivors: []});
  });
});
