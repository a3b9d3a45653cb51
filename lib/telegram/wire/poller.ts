// The long-poll loop: fetches updates, hands each to `onUpdate`, and survives every error (after
// one, it probes with short polls until a poll gets through).
// A stalled request is abandoned after the poll timeout plus a grace period (watchdog).
import type { Logger } from "../../system/log.ts";
import { errorText } from "../../util/error-text.ts";
import { sleep } from "../../util/sleep.ts";
import { TelegramApiError, type TelegramApi } from "./api.ts";
import { LONG_POLL_GRACE_MS, LONG_POLL_SECONDS, OUTAGE_PROBE_MS, RETRY_MAX_MS, RETRY_MIN_MS } from "./timeouts.ts";

export interface PollerOptions {
  api: TelegramApi;
  logger: Logger;
  onUpdate: (update: unknown) => Promise<void> | void;
  /** Called after each update is handled, with the offset that confirms it. */
  onHandled?: (nextOffset: number) => void;
  /** Where to resume (a previous leader's last confirmed offset). */
  initialOffset?: number;
  /** Told once when another consumer holds the token (409), so the user can see it. */
  onConflict?: () => void;
  timeoutSeconds?: number;
  graceMs?: number;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

export interface Poller {
  stop(): Promise<void>;
  readonly running: Promise<void>;
}

export function startPoller(options: PollerOptions): Poller {
  const { api, logger, onUpdate } = options;
  const timeoutSeconds = options.timeoutSeconds ?? LONG_POLL_SECONDS;
  const graceMs = options.graceMs ?? LONG_POLL_GRACE_MS;
  const wait = options.sleep ?? sleep;
  const stopped = new AbortController();
  let offset = options.initialOffset ?? 0;
  let failures = 0;
  let conflictReported = false;

  async function loop(): Promise<void> {
    while (!stopped.signal.aborted) {
      // After a failure the poll asks Telegram not to hold it (timeout 0): a long poll that gets
      // through would only say so when it returns, up to its timeout later, and its success is what
      // tells the outbox that Telegram is back (reachability.ts).
      const seconds = failures > 0 ? 0 : timeoutSeconds;
      const request = AbortSignal.any([stopped.signal, AbortSignal.timeout(seconds * 1000 + graceMs)]);
      let updates: unknown[];
      try {
        updates = await api.getUpdates(offset, seconds, request);
        failures = 0;
      } catch (error) {
        if (stopped.signal.aborted) return;
        failures++;
        const delay = backoffFor(error, failures);
        if (error instanceof TelegramApiError && error.code === 409) {
          // One clear line (and one toast) per conflict; the retries after it are quiet.
          if (!conflictReported) {
            options.onConflict?.();
            logger.warn("another program outside this machine is polling this bot token (Telegram answers 409 Conflict); Hermes keeps retrying with backoff");
          } else {
            logger.debug({ delayMs: delay }, "still 409 Conflict; retrying");
          }
          conflictReported = true;
        } else {
          logger.warn({ err: errorText(error), delayMs: delay, failures }, "getUpdates failed; retrying");
        }
        await wait(delay, stopped.signal).catch(() => undefined);
        continue;
      }
      conflictReported = false;
      for (const update of Array.isArray(updates) ? updates : []) {
        const id = (update as { update_id?: unknown })?.update_id;
        if (typeof id === "number" && id >= offset) offset = id + 1;
        try {
          await onUpdate(update);
        } catch (error) {
          logger.error({ err: errorText(error) }, "update handler failed; polling goes on");
        }
        options.onHandled?.(offset);
      }
    }
  }

  const running = loop().catch((error) => logger.error({ err: errorText(error) }, "poller stopped unexpectedly"));
  return {
    running,
    async stop() {
      stopped.abort();
      await running;
    },
  };
}

/**
 * Exponential backoff, honouring Telegram's `retry_after` exactly when it gives one. A call that got
 * no answer at all (refused, unreachable) is tried again within OUTAGE_PROBE_MS: such a try costs
 * Telegram nothing, and it is how the process notices that Telegram is back (the outbox then sends
 * what waits at once).
 */
export function backoffFor(error: unknown, failures: number): number {
  if (error instanceof TelegramApiError && error.retryAfterSeconds !== undefined) return error.retryAfterSeconds * 1000;
  const base = error instanceof TelegramApiError && error.code === 409 ? 5_000 : RETRY_MIN_MS;
  const cap = error instanceof TelegramApiError && error.code === 0 ? OUTAGE_PROBE_MS : RETRY_MAX_MS;
  return Math.min(cap, base * 2 ** Math.min(failures - 1, 10));
}
