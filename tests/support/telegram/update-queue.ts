/**
 * Pending updates of one bot, with Telegram's offset semantics: getUpdates(offset) confirms
 * (drops) every update whose update_id < offset; a negative offset takes from the end.
 */
export class UpdateQueue {
  private updates: any[] = [];
  private nextId = 500_000_001;
  private listeners = new Set<() => void>();

  push(update: any): any {
    if (typeof update.update_id !== "number") update.update_id = this.nextId;
    this.nextId = Math.max(this.nextId, update.update_id + 1);
    this.updates.push(update);
    this.updates.sort((a, b) => a.update_id - b.update_id);
    for (const listener of [...this.listeners]) listener();
    return update;
  }

  /** Confirms updates below `offset` and returns the ones available from it. */
  take(offset: number, limit: number): any[] {
    if (offset < 0) return this.updates.slice(offset).slice(0, limit);
    if (offset > 0) this.updates = this.updates.filter((u) => u.update_id >= offset);
    return this.updates.slice(0, limit);
  }

  pending(): readonly any[] {
    return this.updates;
  }

  /** Resolves when an update is pushed, the timeout passes, or the signal aborts. */
  waitForPush(timeoutMs: number, signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.listeners.delete(done);
        signal.removeEventListener("abort", done);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      this.listeners.add(done);
      signal.addEventListener("abort", done, { once: true });
    });
  }
}
