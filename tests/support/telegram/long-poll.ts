import { TelegramApiError } from "./types.ts";
import type { UpdateQueue } from "./update-queue.ts";

/**
 * getUpdates with real long polling and Telegram's single-consumer rule.
 * conflict 'reject-new' (default): a getUpdates arriving while another is held gets 409.
 * conflict 'terminate-old' (what api.telegram.org does): the held one gets 409, the new one waits.
 * Either way the overlap is counted in maxConcurrent.
 */
export type ConflictMode = "reject-new" | "terminate-old";

const CONFLICT = "Conflict: terminated by other getUpdates request; make sure that only one bot instance is running";

export class LongPoll {
  active = 0;
  maxConcurrent = 0;
  private held = new Set<AbortController>();

  constructor(
    private readonly queue: UpdateQueue,
    private readonly mode: ConflictMode,
  ) {}

  async getUpdates(payload: Record<string, any>, clientGone: AbortSignal): Promise<any[]> {
    this.active++;
    this.maxConcurrent = Math.max(this.maxConcurrent, this.active);
    const terminated = new AbortController();
    try {
      if (this.held.size > 0) {
        if (this.mode === "reject-new") throw new TelegramApiError(409, CONFLICT);
        for (const other of this.held) other.abort();
      }
      this.held.add(terminated);
      return await this.poll(payload, AbortSignal.any([clientGone, terminated.signal]), terminated.signal);
    } finally {
      this.held.delete(terminated);
      this.active--;
    }
  }

  private async poll(payload: Record<string, any>, stop: AbortSignal, terminated: AbortSignal): Promise<any[]> {
    const offset = toInt(payload.offset, 0);
    const limit = Math.min(Math.max(toInt(payload.limit, 100), 1), 100);
    const deadline = Date.now() + Math.max(toInt(payload.timeout, 0), 0) * 1000;
    for (;;) {
      if (terminated.aborted) throw new TelegramApiError(409, CONFLICT);
      const updates = this.queue.take(offset, limit);
      if (updates.length > 0 || Date.now() >= deadline || stop.aborted) return updates;
      await this.queue.waitForPush(deadline - Date.now(), stop);
    }
  }
}

function toInt(value: unknown, fallback: number): number {
  const n = typeof value === "number" ? value : typeof value === "string" ? Number(value) : NaN;
  return Number.isFinite(n) ? Math.trunc(n) : fallback;
}
