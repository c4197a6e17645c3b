/** Keyed debouncing with an idle signal, so tests (and commands) can wait until pending work is done. vscode-free. */

type Timer = ReturnType<typeof setTimeout>;

export class DebouncedWork {
  private readonly timers = new Map<string, Timer>();
  private running = 0;
  private waiters: Array<() => void> = [];

  /** Runs `task` once `delayMs` after the last call with the same key. */
  schedule(key: string, delayMs: number, task: () => void | Promise<void>): void {
    const existing = this.timers.get(key);
    if (existing) clearTimeout(existing);
    this.timers.set(key, setTimeout(() => {
      this.timers.delete(key);
      this.running++;
      Promise.resolve()
        .then(task)
        .catch(() => undefined)
        .finally(() => { this.running--; this.settle(); });
    }, delayMs));
  }

  /** Tracks an already started piece of work in the idle signal. */
  track<T>(work: Promise<T>): Promise<T> {
    this.running++;
    return work.finally(() => { this.running--; this.settle(); });
  }

  get idle(): boolean {
    return this.timers.size === 0 && this.running === 0;
  }

  /** Resolves when nothing is scheduled or running. */
  whenIdle(): Promise<void> {
    if (this.idle) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  dispose(): void {
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
    this.settle(true);
  }

  private settle(force = false): void {
    if (!force && !this.idle) return;
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }
}
