// A Telegram whose getUpdates long-polls a queue, confirming by offset like the real one (relay tests).
import { MemoryTelegram } from "./memory-telegram.ts";

export class QueueTelegram extends MemoryTelegram {
  readonly updates: Array<{ update_id: number; tag: string } & Record<string, unknown>> = [];
  readonly offsets: number[] = [];
  concurrent = 0;
  maxConcurrent = 0;
  #wake: Array<() => void> = [];

  push(tag: string, extra: Record<string, unknown> = {}): void {
    this.updates.push({ update_id: this.updates.length + 1, tag, ...extra });
    for (const wake of this.#wake.splice(0)) wake();
  }

  override async getUpdates(offset: number, timeoutSeconds: number, signal: AbortSignal): Promise<unknown[]> {
    this.offsets.push(offset);
    this.maxConcurrent = Math.max(this.maxConcurrent, ++this.concurrent);
    const deadline = Date.now() + timeoutSeconds * 1000;
    try {
      for (;;) {
        const ready = this.updates.filter((update) => update.update_id >= offset);
        if (ready.length > 0 || Date.now() >= deadline) return ready;
        if (signal.aborted) throw signal.reason;
        await new Promise<void>((resolve) => {
          this.#wake.push(resolve);
          setTimeout(resolve, deadline - Date.now());
          signal.addEventListener("abort", () => resolve(), { once: true });
        });
      }
    } finally {
      this.concurrent--;
    }
  }
}
