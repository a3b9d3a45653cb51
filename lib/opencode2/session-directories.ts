// Which location (directory) an OpenCode 2 event belongs to: some events name it, the others only
// their session. What earlier events said is remembered for the most recent sessions.
import type { NarrowedEvent } from "./events.ts";

/** Sessions remembered; the one learnt longest ago (or moved longest ago) is forgotten first. */
const SESSION_MEMORY = 5_000;

export class SessionDirectories {
  readonly #directories = new Map<string, string>();
  readonly #limit: number;

  constructor(limit = SESSION_MEMORY) {
    this.#limit = limit;
  }

  /** The event's own directory, else its session's as an earlier event named it; learns from the event first. */
  place(narrowed: NarrowedEvent): string | undefined {
    const { sessionID, directory } = narrowed;
    if (sessionID && directory) this.#remember(sessionID, directory);
    return directory ?? (sessionID ? this.#directories.get(sessionID) : undefined);
  }

  #remember(sessionID: string, directory: string): void {
    if (this.#directories.get(sessionID) === directory) return;
    this.#directories.delete(sessionID);
    this.#directories.set(sessionID, directory);
    if (this.#directories.size > this.#limit) this.#directories.delete(this.#directories.keys().next().value!);
  }
}
