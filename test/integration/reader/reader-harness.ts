import type {FastifyInstance} from 'fastify';
import {buildReaderApp} from '../../../servers/reader/index.js';
import {createReaderService, type LocalReaderService, type ReaderDeps} from '../../../source/feeds/service/index.js';

export interface Answer {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the parsed JSON answer; each test's assertions check its shape.
  body: any;
  text: string;
  headers: Record<string, unknown>;
}

export interface Harness {
  app: FastifyInstance;
  service: LocalReaderService;
  call(method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown): Promise<Answer>;
  close(): Promise<void>;
}

/** The reader app over a real service (real fetcher, parser, discovery unless replaced), driven by app.inject. */
export async function readerHarness(connection: string, deps?: Partial<ReaderDeps>): Promise<Harness> {
  const service = await createReaderService({connection, deps, baseUrl: 'http://reader.test'});
  const app = buildReaderApp({service});
  await app.ready();
  return {
    app,
    service,
    async call(method, url, body) {
      const response = await app.inject({method, url: `/api/v1${url}`, ...(body === undefined ? {} : {payload: body as object})});
      const text = response.body;
      let parsed: unknown;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        parsed = undefined;
      }
      return {status: response.statusCode, body: parsed, text, headers: response.headers};
    },
    async close() {
      await app.close();
      await service.close();
    },
  };
}
