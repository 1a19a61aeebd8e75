type Task = () => Promise<void>;

/**
 * Runs tasks with two limits: at most `total` at once, and at most `perKey` at once per key.
 * A task whose key is saturated waits without blocking tasks of other keys behind it; within a
 * key, tasks start in the order they were pushed.
 */
export class KeyedLimiter {
  private running = 0;
  private readonly runningByKey = new Map<string, number>();
  private readonly waitingByKey = new Map<string, Task[]>();
  private waitingCount = 0;
  private waiters: (() => void)[] = [];

  constructor(
    private readonly total: number,
    private readonly perKey: number,
  ) {}

  get active(): number {
    return this.running;
  }

  get pending(): number {
    return this.waitingCount;
  }

  push(key: string, task: Task): void {
    const queue = this.waitingByKey.get(key);
    if (queue) queue.push(task);
    else this.waitingByKey.set(key, [task]);
    this.waitingCount++;
    this.pump();
  }

  /** Drops every task that has not started; returns how many. */
  clear(): number {
    const dropped = this.waitingCount;
    this.waitingByKey.clear();
    this.waitingCount = 0;
    this.wake();
    return dropped;
  }

  /** Resolves at the next task completion (or clear). */
  progress(): Promise<void> {
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Resolves once nothing runs or waits. */
  async idle(): Promise<void> {
    while (this.running > 0 || this.waitingCount > 0) await this.progress();
  }

  private pump(): void {
    if (this.running >= this.total || this.waitingCount === 0) return;
    for (const [key, queue] of [...this.waitingByKey]) {
      let room = this.perKey - (this.runningByKey.get(key) ?? 0);
      while (room > 0 && this.running < this.total && queue.length > 0) {
        this.start(key, queue.shift()!);
        room--;
      }
      if (queue.length === 0) this.waitingByKey.delete(key);
      if (this.running >= this.total) return;
    }
  }

  private start(key: string, task: Task): void {
    this.waitingCount--;
    this.running++;
    this.runningByKey.set(key, (this.runningByKey.get(key) ?? 0) + 1);
    const done = () => {
      this.running--;
      const left = (this.runningByKey.get(key) ?? 1) - 1;
      if (left === 0) this.runningByKey.delete(key);
      else this.runningByKey.set(key, left);
      this.pump();
      this.wake();
    };
    // Tasks handle their own errors; a throw here must still free the slot.
    Promise.resolve().then(task).then(done, done);
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const resolve of waiters) resolve();
  }
}
