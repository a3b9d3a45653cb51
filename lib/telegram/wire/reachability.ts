// Whether Telegram answers, as the Bot API calls of one token find it. A call that got no answer
// (refused, reset, timed out) or a server error (5xx) marks trouble; the first call that succeeds
// afterwards (usually the long poll, which tries again every second while nothing answers) tells
// whoever waits that Telegram is back, so what waits goes out then instead of at the end of its
// own backoff. Flood control (429) is no trouble: Telegram answered, and its retry_after holds.

export class Reachability {
  #troubled = false;
  readonly #listeners = new Set<() => void>();

  /** Whether a call failed since the last one that succeeded. */
  get troubled(): boolean {
    return this.#troubled;
  }

  /** A call failed with this HTTP status (0: no answer at all). */
  failed(code: number): void {
    if (code === 0 || code >= 500) this.#troubled = true;
  }

  /** A call succeeded: after trouble, every listener hears that Telegram is back (once). */
  answered(): void {
    if (!this.#troubled) return;
    this.#troubled = false;
    for (const listener of [...this.#listeners]) listener();
  }

  /** Called each time Telegram is back after trouble; returns the unsubscribe. */
  onBack(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}
