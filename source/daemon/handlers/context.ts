import type {ProxyManager} from '../../devproxy/manager.js';
import type {Supervisor} from '../../processes/supervisor.js';
import type {MethodName, Params, Result, SurvivingProcess, Topic} from '../protocol/index.js';

/** What a method handler may use: the daemon's state and the connection that asked. */
export interface MethodContext {
  supervisor: Supervisor;
  proxies: ProxyManager;
  startedAt: number;
  /** Processes an earlier, crashed daemon left running. */
  survivors(): SurvivingProcess[];
  subscribe(topic: Topic, processId?: string): void;
  unsubscribe(topic: Topic, processId?: string): void;
  shutdown(): void;
}

export type Handler<M extends MethodName> = (params: Params<M>, context: MethodContext) => Result<M> | Promise<Result<M>>;

/** One handler per method of an area; the compiler holds each to its protocol entry. */
export type Handlers<Names extends MethodName> = {[M in Names]: Handler<M>};
