// The JetStream publisher the NATS sink sends with (one write a batch, the acks on one inbox)
// against a real nats-server of the test's own: what it says for each way a message is not stored
// — no stream takes the subject (a 503 status), the stream refuses it (a PubAck error), nobody
// answers (the ack timeout), the connection closed — and that one refusal in a batch is named at
// its place while the messages around it are stored, in order.
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {jetstreamManager, type JetStreamManager} from '@nats-io/jetstream';
import {connect, type NatsConnection} from '@nats-io/transport-node';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {JetStreamPublisher} from '../../../source/gql/events/sinks/jetstream-publisher.js';
import {natsServerMissing, startNatsServer, type NatsServer} from '../../helpers/nats-server.js';
import {closedPort} from '../../helpers/test-network.js';

const missing = natsServerMissing();

describe.skipIf(missing !== null)('JetStreamPublisher against a real nats-server', () => {
  let dir: string;
  let server: NatsServer;
  let nc: NatsConnection;
  let manager: JetStreamManager;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'wb-jetstream-publisher-'));
    server = await startNatsServer(await closedPort(), join(dir, 'store'));
    nc = await connect({servers: `127.0.0.1:${server.port}`, noAsyncTraces: true});
    manager = await jetstreamManager(nc);
    await manager.streams.add({name: 'PUB', subjects: ['pub.>']});
    // A stream that refuses every message over 64 bytes: its PubAck is an error.
    await manager.streams.add({name: 'SMALL', subjects: ['small.>'], max_msg_size: 64});
  });
  afterAll(async () => {
    await nc?.close().catch(() => undefined);
    await server?.stop();
    rmSync(dir, {recursive: true, force: true});
  });

  it('stores a batch in order with its Nats-Msg-Id, and a second send of the same ids is dropped by the stream', async () => {
    const publisher = new JetStreamPublisher(nc, 5000);
    const batch = Array.from({length: 300}, (_, index) => ({subject: `pub.t.${index % 3}`, body: `{"n":${index}}`, msgId: `m${index}`}));
    expect(await publisher.publishAll(batch)).toEqual(batch.map(() => undefined));
    expect(await publisher.publishAll(batch)).toEqual(batch.map(() => undefined));
    const info = await manager.streams.info('PUB');
    expect(info.state.messages).toBe(300);
    const first = await manager.streams.getMessage('PUB', {seq: 1});
    const last = await manager.streams.getMessage('PUB', {seq: 300});
    expect([first?.string(), first?.header.get('Nats-Msg-Id')]).toEqual(['{"n":0}', 'm0']);
    expect([last?.string(), last?.header.get('Nats-Msg-Id')]).toEqual(['{"n":299}', 'm299']);
    publisher.close();
  });

  it('names each way a message is not stored, at its place in the batch', async () => {
    const publisher = new JetStreamPublisher(nc, 5000);
    const outcomes = await publisher.publishAll([
      {subject: 'small.a', body: 'ok', msgId: 's1'},
      {subject: 'small.a', body: 'x'.repeat(200), msgId: 's2'},
      {subject: 'nowhere.a', body: 'ok', msgId: 's3'},
      {subject: 'small.a', body: 'ok again', msgId: 's4'},
    ]);
    expect(outcomes[0]).toBeUndefined();
    expect(outcomes[1]).toMatch(/message size exceeds maximum allowed \(\d+\)/);
    expect(outcomes[2]).toBe('no stream takes this subject (503 no responders)');
    expect(outcomes[3]).toBeUndefined();
    expect((await manager.streams.info('SMALL')).state.messages).toBe(2);
    publisher.close();
  });

  it('a subject answered by nobody who acknowledges fails after the ack timeout; close settles what still waits', async () => {
    // A plain subscriber hears the messages (so no 503) but never answers their reply subject.
    const silent = nc.subscribe('mute.>');
    const publisher = new JetStreamPublisher(nc, 200);
    expect(await publisher.publishAll([{subject: 'mute.a', body: '1', msgId: 'q1'}])).toEqual(['no acknowledgement in 200 ms']);
    const slow = new JetStreamPublisher(nc, 60_000);
    const waiting = slow.publishAll([{subject: 'mute.b', body: '2', msgId: 'q2'}]);
    await nc.flush();
    slow.close();
    expect(await waiting).toEqual(['the connection closed']);
    publisher.close();
    silent.unsubscribe();
  });

  it('an answer that is not a PubAck is named, not trusted: not JSON, no stream, an error of its own', async () => {
    // A plain responder on the subjects answers every message with what the test chose.
    const answers: Record<string, string> = {'odd.text': 'hello', 'odd.empty': '{}', 'odd.error': '{"error":{"code":418,"description":"a teapot"}}'};
    const responder = nc.subscribe('odd.>', {callback: (_error, msg) => void msg.respond(answers[msg.subject])});
    const publisher = new JetStreamPublisher(nc, 5000);
    const outcomes = await publisher.publishAll(Object.keys(answers).map((subject, index) => ({subject, body: 'x', msgId: `o${index}`})));
    expect(outcomes).toEqual(['the acknowledgement is not JSON', 'invalid acknowledgement', 'a teapot (418)']);
    publisher.close();
    responder.unsubscribe();
  });

  it('a publish on a closed connection is named, not thrown', async () => {
    const own = await connect({servers: `127.0.0.1:${server.port}`, noAsyncTraces: true});
    const publisher = new JetStreamPublisher(own, 1000);
    await own.close();
    const [outcome] = await publisher.publishAll([{subject: 'pub.closed', body: '1', msgId: 'c1'}]);
    expect(outcome).toMatch(/closed/i);
  });
});
