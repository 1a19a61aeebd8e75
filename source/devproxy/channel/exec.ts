import {randomUUID} from 'node:crypto';
import {WorkbenchError} from '../../core/errors.js';
import type {ExecResult} from '../types.js';
import type {ProxyMessage} from './protocol.js';

export const DEFAULT_EXEC_TIMEOUT_MS = 5000;
export const MAX_EXEC_TIMEOUT_MS = 60_000;
const MAX_CODE = 100_000;

/** A page an exec can run in. */
export interface ExecTarget {
  session: string;
  url: string;
  send(message: ProxyMessage): void;
}

interface Pending {
  target: ExecTarget;
  settle: (result: ExecResult) => void;
}

/**
 * Execs waiting for their pages' answers. Each page's answer, its timeout and its disconnect race;
 * the first settles it, so a page that loops forever or goes away costs the caller `timeoutMs`.
 */
export class ExecRequests {
  private readonly pending = new Map<string, Pending>();

  run(code: unknown, targets: ExecTarget[], timeoutMs: unknown = DEFAULT_EXEC_TIMEOUT_MS): Promise<ExecResult[]> {
    if (typeof code !== 'string' || code.trim() === '') throw new WorkbenchError('invalid_argument', 'exec needs JavaScript code to run in the page');
    if (code.length > MAX_CODE) throw new WorkbenchError('invalid_argument', `exec code is ${code.length} characters; at most ${MAX_CODE}`);
    if (typeof timeoutMs !== 'number' || !Number.isInteger(timeoutMs) || timeoutMs < 1 || timeoutMs > MAX_EXEC_TIMEOUT_MS) {
      throw new WorkbenchError('invalid_argument', `exec timeout ${JSON.stringify(timeoutMs)} must be an integer from 1 to ${MAX_EXEC_TIMEOUT_MS} ms`);
    }
    return Promise.all(targets.map((target) => this.runIn(target, code, timeoutMs)));
  }

  private runIn(target: ExecTarget, code: string, timeoutMs: number): Promise<ExecResult> {
    const id = randomUUID();
    return new Promise<ExecResult>((resolve) => {
      const timer = setTimeout(() => settle({session: target.session, url: target.url, ok: false, error: `the page did not answer within ${timeoutMs} ms`}), timeoutMs);
      const settle = (result: ExecResult) => {
        if (!this.pending.delete(id)) return;
        clearTimeout(timer);
        resolve(result);
      };
      this.pending.set(id, {target, settle});
      try {
        target.send({t: 'exec', id, code, timeoutMs});
      } catch (error) {
        settle({session: target.session, url: target.url, ok: false, error: `could not send to the page: ${(error as Error).message}`});
      }
    });
  }

  /** A page's answer; one for an id this page was not asked is ignored. */
  answer(from: ExecTarget, result: {id: string; ok: boolean; value?: unknown; error?: string}): void {
    const pending = this.pending.get(result.id);
    if (!pending || pending.target !== from) return;
    const base = {session: from.session, url: from.url};
    pending.settle(result.ok ? {...base, ok: true, value: result.value ?? null} : {...base, ok: false, error: result.error ?? 'the code threw'});
  }

  /** The page went away: its execs fail now rather than at their timeout. */
  abandon(target: ExecTarget): void {
    for (const pending of [...this.pending.values()]) {
      if (pending.target === target) pending.settle({session: target.session, url: target.url, ok: false, error: 'the page closed before answering'});
    }
  }

  cancelAll(): void {
    for (const pending of [...this.pending.values()]) pending.settle({session: pending.target.session, url: pending.target.url, ok: false, error: 'the proxy stopped'});
  }
}
