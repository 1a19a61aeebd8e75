import {setFlagsFromString} from 'node:v8';

/**
 * The gateway's process as `serve gateway` runs it. V8 scavenges the young generation with helper
 * threads by default; for this server — one event loop answering small, mostly cached requests —
 * those threads only contend with the event loop for the cores: on the 2-core benchmark machine a
 * scavenge of the gateway's heap took 3–6 ms in parallel against 0.5 ms on the main thread alone,
 * and the cached-feed figure went from 0.90× to 1.06–1.33× of bare node:http with this flag
 * (bench/gateway.mjs). The flag is read at each scavenge, so setting it once running takes effect.
 */
export function tuneGatewayProcess(): void {
  setFlagsFromString('--no-parallel-scavenge');
}
