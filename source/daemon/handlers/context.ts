import type {ProxyManager} from '../../devproxy/manager.js';
import type {Supervisor} from '../../processes/supervisor.js';
import type {Inbox} from '../inbox.js';
import type {MethodName, Params, Result, SurvivingProcess, Topic} from '../protocol/index.js';

/** What a method handler may use: the daemon's state and the connection that asked. */
export interface MethodContext {
  supervisor: Supervisor;
  proxies: ProxyManager;
  /** The error inbox over both (get_errors, get_incidents, read marks). */
  inbox: Inbox;
  startedAt: number;
  /** Projects whose processes every project sees: the home's own (the feed reader the TUI starts). */
  shared: string[];
  /** Processes an earlier, crashed daemon left running. */
  survivors(): SurvivingProcess[];
  /** `processKey`: one process's output (its full `<project>#<id>`), every process's when absent. */
  subscribe(topic: Topic, processKey?: string): void;
  unsubscribe(topic: Topic, processKey?: string): void;
  shutdown(): void;
}

export type Handler<M extends MethodName> = (params: Params<M>, context: MethodContext) => Result<M> | Promise<Result<M>>;

/** One handler per method of an area; the compiler holds each to its protocol entry. */
export type Handlers<Names extends MethodName> = {[M in Names]: Handler<M>};
