// Whether the person is at the desk (issue 51, HERMES_DESK_DELAY), pure: a sign of the desk (a
// prompt typed into a session not from the phone, a question or permission answered there) counts
// for DESK_WINDOW_MS; /away on the phone ends it at once, until the next sign.

/** How long a sign of the desk counts. */
export const DESK_WINDOW_MS = 5 * 60_000;

export class DeskPresence {
  #signAt = Number.NEGATIVE_INFINITY;
  #awayAt = Number.NEGATIVE_INFINITY;

  /** The person did something at the desk. */
  sign(now: number): void {
    this.#signAt = now;
  }

  /** /away: not at the desk from now on, until the next sign. */
  away(now: number): void {
    this.#awayAt = now;
  }

  atDesk(now: number): boolean {
    return this.#signAt > this.#awayAt && now - this.#signAt < DESK_WINDOW_MS;
  }
}
