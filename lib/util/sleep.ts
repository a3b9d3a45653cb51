// Waiting a while, as a promise: the one timer every retry loop and backoff waits on.

/**
 * Resolves after `ms`, or as soon as `signal` aborts (at once when it has already): a stopped
 * wait is not an error, the caller reads the signal. Never rejects.
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });
}
