import {Gauge, type Registry} from 'prom-client';
import type {OutboxStore} from './outbox-store.js';

/**
 * `workbench_outbox_pending_events`: the CDC outbox's backlog, counted when scraped (one indexed
 * count). A database that does not answer makes it NaN for that scrape (unknown, never a wrong
 * number) rather than failing the whole `/metrics`.
 */
export function outboxMetrics(registry: Registry, store: OutboxStore): void {
  new Gauge({
    name: 'workbench_outbox_pending_events',
    help: 'Change events in the CDC outbox not yet delivered (dead ones excluded).',
    registers: [registry],
    async collect() {
      try {
        this.set(await store.pendingCount());
      } catch {
        this.set(Number.NaN);
      }
    },
  });
}
