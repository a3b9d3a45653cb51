// Quiet while the person is at the desk (issue 51, HERMES_DESK_DELAY; unset: off, today's
// behaviour): a new prompt waits the delay before it reaches the phone (answered at the desk
// meanwhile, it never does: lib/bridge/prompts/prompt-messages.ts sends only a pending prompt),
// and a Done notice of a run started at the desk goes silently. /away ends it at once: the prompts
// waiting go out now. The signs of the desk come from digest-feed.ts (a run started not from the
// phone, a prompt answered elsewhere).
import type { Logger } from "../../system/log.ts";
import { DeskPresence } from "../../walkaway/desk-presence.ts";

export interface DeskQuietDeps {
  /** HERMES_DESK_DELAY in ms; undefined or 0: off. */
  delayMs: number | undefined;
  now: () => number;
  log: Logger;
}

export class DeskQuiet {
  readonly #deps: DeskQuietDeps;
  readonly #presence = new DeskPresence();
  /** The prompts waiting now, each released by its timer or by /away. */
  readonly #waiting = new Set<() => void>();

  constructor(deps: DeskQuietDeps) {
    this.#deps = deps;
  }

  get enabled(): boolean {
    return (this.#deps.delayMs ?? 0) > 0;
  }

  sign(what: string): void {
    if (!this.enabled) return;
    if (!this.#presence.atDesk(this.#deps.now())) this.#deps.log.info({ what }, "at the desk: new prompts wait before they reach the phone");
    this.#presence.sign(this.#deps.now());
  }

  /** /away: prompts reach the phone at once again (those waiting now too), until the next sign of the desk. */
  away(): void {
    this.#presence.away(this.#deps.now());
    for (const release of [...this.#waiting]) release();
    this.#deps.log.info({ released: this.#waiting.size }, "away from the desk (/away)");
  }

  atDesk(): boolean {
    return this.enabled && this.#presence.atDesk(this.#deps.now());
  }

  /** Before a new prompt goes to the phone: resolves at once, or after the delay while the person is at the desk (sooner on /away). */
  wait(): Promise<void> {
    if (!this.atDesk()) return Promise.resolve();
    return new Promise((resolve) => {
      const release = () => {
        clearTimeout(timer);
        this.#waiting.delete(release);
        resolve();
      };
      const timer = setTimeout(release, this.#deps.delayMs);
      this.#waiting.add(release);
    });
  }

  stop(): void {
    for (const release of [...this.#waiting]) release();
  }
}
