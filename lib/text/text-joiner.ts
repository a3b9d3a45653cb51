// Joins a typed answer that Telegram split into several messages back into one text.
// Telegram clients split long text into consecutive messages; only the first is a reply, so the
// rest are recognised as plain messages from the same person in the same chat soon after.

export interface JoinTarget<T> {
  target: T;
  parts: string[];
  timer: ReturnType<typeof setTimeout>;
}

export class TextJoiner<T> {
  readonly #open = new Map<string, JoinTarget<T>>();
  readonly #quietMs: number;
  readonly #onComplete: (target: T, text: string) => void;

  constructor(quietMs: number, onComplete: (target: T, text: string) => void) {
    this.#quietMs = quietMs;
    this.#onComplete = onComplete;
  }

  /** The first part (the reply itself). A new start from the same sender flushes the previous one. */
  start(sender: string, target: T, text: string): void {
    this.flush(sender);
    const entry: JoinTarget<T> = { target, parts: [text], timer: this.#arm(sender) };
    this.#open.set(sender, entry);
  }

  /** Whether an answer from this sender is still being collected. */
  collecting(sender: string): boolean {
    return this.#open.has(sender);
  }

  /** A later plain message: true when it belonged to an answer still being collected. */
  append(sender: string, text: string): boolean {
    const entry = this.#open.get(sender);
    if (!entry) return false;
    clearTimeout(entry.timer);
    entry.parts.push(text);
    entry.timer = this.#arm(sender);
    return true;
  }

  flush(sender: string): void {
    const entry = this.#open.get(sender);
    if (!entry) return;
    clearTimeout(entry.timer);
    this.#open.delete(sender);
    this.#onComplete(entry.target, entry.parts.join("\n"));
  }

  /** Drops everything still being collected (shutdown). */
  clear(): void {
    for (const entry of this.#open.values()) clearTimeout(entry.timer);
    this.#open.clear();
  }

  #arm(sender: string): ReturnType<typeof setTimeout> {
    return setTimeout(() => this.flush(sender), this.#quietMs);
  }
}
