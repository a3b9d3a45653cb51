// Bounding how long Hermes waits for something it can't cancel (a Bot API call, a bridge that
// stops). Two honestly different answers when time runs out: an error, or carrying on.

/**
 * `work`'s own outcome, unless `ms` pass first (then it rejects with `timeoutError()`) or `signal`
 * aborts first (then it rejects with the signal's reason, at once when it has aborted already).
 * `work` itself goes on; only the wait ends.
 */
export function withTimeout<T>(work: Promise<T>, ms: number, timeoutError: () => Error, signal?: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => finish(() => reject(timeoutError())), ms);
    const onAbort = () => finish(() => reject(signal?.reason));
    const finish = (then: () => void) => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      then();
    };
    work.then(
      (value) => finish(() => resolve(value)),
      (error: unknown) => finish(() => reject(error)),
    );
    if (signal?.aborted) onAbort();
    else signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** Waits for `work` to settle, but never longer than `ms`. Never rejects: how `work` ended is not told. */
export function waitAtMost(work: Promise<unknown>, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    const done = () => {
      clearTimeout(timer);
      resolve();
    };
    work.then(done, done);
  });
}
