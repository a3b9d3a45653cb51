/**
 * Polling wait with a hard timeout. Every wait in the harness goes through here so that a
 * timeout always names what was awaited and (optionally) appends diagnostic context.
 */
import { sleep } from "../../lib/util/sleep.ts";

export interface PollOptions {
  timeoutMs?: number;
  intervalMs?: number;
  what?: string;
  /** Extra diagnostics appended to the timeout error (e.g. the tail of OpenCode's log). */
  context?: () => string;
}

export const DEFAULT_WAIT_MS = 10_000;

export { sleep };

/** Resolves with the first truthy value returned by `check`; async checks are awaited. */
export async function pollUntil<T>(check: () => T | undefined | null | false | Promise<T | undefined | null | false>, opts: PollOptions = {}): Promise<T> {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_WAIT_MS;
  const intervalMs = opts.intervalMs ?? 20;
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined && value !== null && value !== false) return value;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() >= deadline) break;
    await sleep(Math.min(intervalMs, Math.max(0, deadline - Date.now())));
  }
  const parts = [`Timed out after ${timeoutMs} ms waiting for ${opts.what ?? "condition"}`];
  if (lastError !== undefined) parts.push(`last error: ${errorMessage(lastError)}`);
  const context = opts.context?.();
  if (context) parts.push(context);
  throw new Error(parts.join("\n"));
}

export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
