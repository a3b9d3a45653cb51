// Work queued per key runs strictly in order: each starts when the one before it ended, failed or
// not. Pure (no timers, no I/O); prompt-life.ts keys it by prompt, so two quick taps can't race.

export class SerialQueues {
  readonly #tails = new Map<string, Promise<void>>();

  /** Runs `work` after everything queued for `key`; a failure goes to `onError` and the queue goes on. */
  run(key: string, work: () => Promise<void>, onError: (error: unknown) => void): Promise<void> {
    const previous = this.#tails.get(key) ?? Promise.resolve();
    const next = previous
      .then(work)
      .catch(onError)
      .finally(() => {
        if (this.#tails.get(key) === next) this.#tails.delete(key);
      });
    this.#tails.set(key, next);
    return next;
  }

  /** Settles once everything queued so far has run. */
  drained(): Promise<void> {
    return Promise.all([...this.#tails.values()]).then(() => undefined);
  }

  /** How many keys have work queued or running. */
  get size(): number {
    return this.#tails.size;
  }
}
