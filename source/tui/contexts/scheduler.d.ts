// scheduler (React's own task queue, the one react-reconciler renders ink's updates through) ships
// no types: only what KeypressContext (and the TUI tests' harness) uses, as its source names it.
declare module 'scheduler' {
  export const unstable_NormalPriority: number;
  export const unstable_IdlePriority: number;
  export function unstable_scheduleCallback(priority: number, callback: () => void): unknown;
  export function unstable_cancelCallback(task: unknown): void;
}
