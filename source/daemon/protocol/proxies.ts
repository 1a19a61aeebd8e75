import {z} from 'zod';
import type {ProxyPages} from '../../devproxy/manager.js';
import {execTimeoutSchema, logSizeSchema, portSchema, proxyIdSchema, statusCodeSchema, targetUrlSchema, trafficTypeSchema} from '../../devproxy/params.js';
import type {ExecResult, ProxyInfo, TrafficEntry} from '../../devproxy/types.js';
import {noParams, returns, type MethodSpec} from './define.js';

/** `proxy.*`: the dev proxies the daemon owns (start, stop, traffic log, pages, exec in a page). */
export const proxyMethods = {
  'proxy.start': {
    params: z.strictObject({id: proxyIdSchema, target: targetUrlSchema, port: portSchema.optional(), nextFree: z.boolean().optional(), logSize: logSizeSchema.optional()}),
    result: returns<ProxyInfo>(),
  },
  'proxy.stop': {params: z.strictObject({id: proxyIdSchema}), result: returns<ProxyInfo>()},
  'proxy.list': {params: noParams, result: returns<ProxyInfo[]>()},
  'proxy.exec': {
    params: z.strictObject({id: proxyIdSchema, code: z.string().min(1).max(100_000), session: z.string().min(1).max(64).optional(), timeoutMs: execTimeoutSchema.optional()}),
    result: returns<ExecResult[]>(),
  },
  'proxy.log': {
    params: z.strictObject({
      id: proxyIdSchema,
      types: z.array(trafficTypeSchema).max(5).optional(),
      statusCodes: z.array(statusCodeSchema).max(100).optional(),
      /** Epoch ms. */
      since: z.number().optional(),
      afterSeq: z.number().int().min(0).optional(),
      path: z.string().max(2048).optional(),
      limit: z.number().int().min(1).max(100_000).optional(),
    }),
    result: returns<TrafficEntry[]>(),
  },
  /** currentpage: one proxy's pages, or every proxy's. */
  'proxy.pages': {params: z.strictObject({id: proxyIdSchema.optional()}), result: returns<ProxyPages[]>()},
} satisfies Record<string, MethodSpec>;
