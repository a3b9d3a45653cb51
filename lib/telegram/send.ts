// Retries a Telegram call that failed for a passing reason: flood control (waiting exactly
// `retry_after`), server errors or no answer. Anything else (a 400) fails at once.
import pRetry, { AbortError } from "p-retry";
import type { Logger } from "../log.ts";
import { TelegramApiError } from "./api.ts";

export interface SendRetryOptions {
  retries?: number;
  minTimeout?: number;
  sleep?: (ms: number) => Promise<void>;
}

export async function sendWithRetry<T>(call: () => Promise<T>, logger: Logger, options: SendRetryOptions = {}): Promise<T> {
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  return pRetry(
    async () => {
      try {
        return await call();
      } catch (error) {
        if (!(error instanceof TelegramApiError) || !error.isTransient) throw new AbortError(error instanceof Error ? error : String(error));
        if (error.retryAfterSeconds !== undefined) {
          logger.warn({ retryAfter: error.retryAfterSeconds }, "Telegram flood control: waiting as told");
          await sleep(error.retryAfterSeconds * 1000);
        }
        throw error;
      }
    },
    { retries: options.retries ?? 5, minTimeout: options.minTimeout ?? 300, maxTimeout: 5_000 },
  );
}
