// When a failed Bot API call may be tried again (pure: time is passed in). Telegram's own
// `retry_after` is kept to the letter; Hermes' exponential backoff is only a guess at when an
// outage ends, so it ends as soon as Telegram is seen back (reachability.ts).

export interface RetryWait {
  /** Not before this time. */
  until: number;
  /** Telegram named the time (retry_after): nothing cuts it short. */
  told: boolean;
}

export interface Backoff {
  minMs: number;
  maxMs: number;
}

/** The wait after the `attempts`-th failure: retry_after exactly when Telegram gave one, else backoff doubling from `minMs` up to `maxMs`. */
export function retryWait(retryAfterSeconds: number | undefined, attempts: number, now: number, backoff: Backoff): RetryWait {
  if (retryAfterSeconds !== undefined) return { until: now + retryAfterSeconds * 1000, told: true };
  const delay = Math.min(backoff.maxMs, backoff.minMs * 2 ** Math.min(Math.max(attempts, 1) - 1, 16));
  return { until: now + delay, told: false };
}

/** Telegram is back at `now`: a backoff ends now, a retry_after stands. */
export function whenBack(wait: RetryWait, now: number): RetryWait {
  return wait.told || wait.until <= now ? wait : { until: now, told: false };
}
