// The messages from the phone that wait for a busy session (issue 53, docs/phone.md#the-queue):
// held by Hermes, not sent, because OpenCode hands a prompt sent to a busy session to the model at
// the run's next step (docs/compatibility.md). Per session in the order they came, each with a
// random key for its buttons; Remove takes one out, Send now puts one first, the run's end takes
// the first. Pure: the phone half (lib/bridge/runs/queue-control.ts) sends, posts and edits.
import { newPromptKey } from "./registry.ts";

export interface Queued<T> {
  key: string;
  sessionID: string;
  /** When it came (ms). */
  at: number;
  item: T;
}

/** At most this many messages wait in all (the oldest beyond it are refused, never dropped silently). */
export const QUEUE_LIMIT = 200;

export class MessageQueue<T> {
  readonly #bySession = new Map<string, Queued<T>[]>();
  readonly #byKey = new Map<string, Queued<T>>();
  readonly #newKey: () => string;

  constructor(newKey: () => string = () => newPromptKey()) {
    this.#newKey = newKey;
  }

  /** Adds a message behind the others of its session: its entry and its place (1: next), or undefined when full. */
  add(sessionID: string, item: T, at: number): { entry: Queued<T>; place: number } | undefined {
    if (this.#byKey.size >= QUEUE_LIMIT) return undefined;
    const entry: Queued<T> = { key: this.#newKey(), sessionID, at, item };
    const list = this.#bySession.get(sessionID) ?? [];
    list.push(entry);
    this.#bySession.set(sessionID, list);
    this.#byKey.set(entry.key, entry);
    return { entry, place: list.length };
  }

  get(key: string): Queued<T> | undefined {
    return this.#byKey.get(key);
  }

  /** Its place in its session's line (1: next), or 0 when it is no longer queued. */
  placeOf(key: string): number {
    const entry = this.#byKey.get(key);
    return entry ? this.#bySession.get(entry.sessionID)!.indexOf(entry) + 1 : 0;
  }

  has(sessionID: string): boolean {
    return (this.#bySession.get(sessionID)?.length ?? 0) > 0;
  }

  /** Every waiting message, oldest first (`sessions`: only theirs). */
  list(sessions?: ReadonlySet<string>): Queued<T>[] {
    const all = [...this.#bySession.entries()].filter(([sessionID]) => !sessions || sessions.has(sessionID)).flatMap(([, list]) => list);
    return all.sort((a, b) => a.at - b.at);
  }

  /** Takes one out (Remove): the entry, or undefined if it had gone. */
  remove(key: string): Queued<T> | undefined {
    const entry = this.#byKey.get(key);
    if (!entry) return undefined;
    this.#byKey.delete(key);
    const list = this.#bySession.get(entry.sessionID)!;
    list.splice(list.indexOf(entry), 1);
    if (list.length === 0) this.#bySession.delete(entry.sessionID);
    return entry;
  }

  /** Puts one first in its session's line (Send now): false if it had gone. */
  promote(key: string): boolean {
    const entry = this.#byKey.get(key);
    if (!entry) return false;
    const list = this.#bySession.get(entry.sessionID)!;
    list.splice(list.indexOf(entry), 1);
    list.unshift(entry);
    return true;
  }

  /** The run ended: the session's first message leaves the queue, to be sent. */
  next(sessionID: string): Queued<T> | undefined {
    const first = this.#bySession.get(sessionID)?.[0];
    return first ? this.remove(first.key) : undefined;
  }

  /** The session is gone: everything it held. */
  drop(sessionID: string): Queued<T>[] {
    const list = [...(this.#bySession.get(sessionID) ?? [])];
    for (const entry of list) this.remove(entry.key);
    return list;
  }
}
