// A run held by a usage limit, one pause per session (pure: values in, values out; the caller
// owns the clock and the timer). OpenCode either waits to retry itself (1.x's `retry` status with
// `next`, 2.0.15's `session.retry.scheduled` with `at`), or gives up (1.18.33 after five retries,
// 2.0.15 at once on a quota error): then Hermes resumes the run at the reset time it read from the
// provider's words, plus RESUME_GRACE_MS, by sending the session `continue`, once. Without a reset
// time nobody resumes it but the person (Resume now). What the phone sends the session meanwhile
// is held here and given back, in order, when the run resumes.
import { resetTimeIn } from "./reset-time.ts";

/** After the reset time, the few seconds Hermes waits before it sends `continue` (the provider's clock may be behind). */
export const RESUME_GRACE_MS = 5_000;

/** Who resumes the run at the reset: OpenCode's own retry, Hermes' `continue`, or nobody (no reset time known). */
export type Resumer = "opencode" | "hermes" | "nobody";

/** How a pause ended. */
export type PauseEnd =
  /** OpenCode's own retry went through: the run moves again. */
  | "resumed-by-opencode"
  /** Hermes sent `continue` at the reset time. */
  | "resumed"
  /** The person tapped Resume now. */
  | "resumed-now"
  | "cancelled"
  /** The run ended otherwise: stopped, failed for another reason, or went on without a resume. */
  | "ended";

export interface Pause<Held> {
  sessionID: string;
  since: number;
  /** The provider's own words. */
  words: string;
  resetAt?: number;
  resumer: Resumer;
  /** What the phone sent the session while it waited, in order. */
  held: Held[];
  end?: { kind: PauseEnd; at: number };
}

/** What a tap or the timer asks the caller to do for one pause (its view after the change). */
export interface Resume<Held> {
  pause: Pause<Held>;
  /** OpenCode is itself waiting to retry: stop that wait through its abort before anything else. */
  abortFirst: boolean;
  /** Send the session `continue` (and then the held messages). */
  sendContinue: boolean;
}

export class LimitPauses<Held> {
  readonly #pauses = new Map<string, Pause<Held>>();

  /** OpenCode waits to retry a limited request, until `next` (ms since the epoch) when it says. Returns the pause when it is new or its view changed. */
  retrying(sessionID: string, words: string, next: number | undefined, now: number): Pause<Held> | undefined {
    const pause = this.#pauses.get(sessionID);
    const resetAt = next !== undefined && next > now ? next : resetTimeIn(words, now);
    if (!pause) return this.#open(sessionID, words, resetAt, "opencode", now);
    const changed = pause.words !== words || pause.resetAt !== resetAt || pause.resumer !== "opencode";
    pause.words = words;
    pause.resumer = "opencode";
    if (resetAt !== undefined) pause.resetAt = resetAt;
    else delete pause.resetAt;
    return changed ? snapshot(pause) : undefined;
  }

  /**
   * The run ended with a limit error: OpenCode gave up. Hermes resumes it at the reset time the
   * words name, or at the retry time OpenCode last said if that is still ahead; else nobody does.
   */
  gaveUp(sessionID: string, words: string, now: number): Pause<Held> {
    const pause = this.#pauses.get(sessionID);
    const named = resetTimeIn(words, now);
    const resetAt = named ?? (pause?.resetAt !== undefined && pause.resetAt > now ? pause.resetAt : undefined);
    const resumer: Resumer = resetAt !== undefined ? "hermes" : "nobody";
    if (!pause) return this.#open(sessionID, words, resetAt, resumer, now);
    pause.words = words || pause.words;
    pause.resumer = resumer;
    if (resetAt !== undefined) pause.resetAt = resetAt;
    else delete pause.resetAt;
    return snapshot(pause);
  }

  /** A sign the run moves again (text, a tool, tokens): a pause OpenCode was to resume is over. */
  moving(sessionID: string, now: number): Pause<Held> | undefined {
    const pause = this.#pauses.get(sessionID);
    if (pause?.resumer !== "opencode") return undefined;
    return this.#close(pause, "resumed-by-opencode", now);
  }

  /** The run ended without a limit error (stopped at the terminal, failed otherwise): a pause OpenCode was to resume is over. */
  ended(sessionID: string, now: number): Pause<Held> | undefined {
    const pause = this.#pauses.get(sessionID);
    if (pause?.resumer !== "opencode") return undefined;
    return this.#close(pause, "ended", now);
  }

  /** The session was prompted from elsewhere (the terminal): whatever it waited for, it goes on. */
  promptedElsewhere(sessionID: string, now: number): Pause<Held> | undefined {
    const pause = this.#pauses.get(sessionID);
    return pause ? this.#close(pause, "ended", now) : undefined;
  }

  /** Holds what the phone sends the session while a resume is due (not when nobody will resume it). */
  hold(sessionID: string, item: Held): Pause<Held> | undefined {
    const pause = this.#pauses.get(sessionID);
    if (!pause || pause.resumer === "nobody") return undefined;
    pause.held.push(item);
    return snapshot(pause);
  }

  /** Resume now: stops OpenCode's own wait first when it waits, then `continue`. Undefined when the pause is over. */
  resumeNow(sessionID: string, now: number): Resume<Held> | undefined {
    const pause = this.#pauses.get(sessionID);
    if (!pause) return undefined;
    const abortFirst = pause.resumer === "opencode";
    return { pause: this.#close(pause, "resumed-now", now), abortFirst, sendContinue: true };
  }

  /** Cancel: no resume; OpenCode's own retry is stopped through its abort. The held messages are not sent. */
  cancel(sessionID: string, now: number): Resume<Held> | undefined {
    const pause = this.#pauses.get(sessionID);
    if (!pause) return undefined;
    const abortFirst = pause.resumer === "opencode";
    return { pause: this.#close(pause, "cancelled", now), abortFirst, sendContinue: false };
  }

  /** The pauses Hermes resumes now (their reset time and the grace passed), each given once and closed. */
  due(now: number): Array<Resume<Held>> {
    const due: Array<Resume<Held>> = [];
    for (const pause of [...this.#pauses.values()]) {
      if (pause.resumer === "hermes" && pause.resetAt !== undefined && pause.resetAt + RESUME_GRACE_MS <= now)
        due.push({ pause: this.#close(pause, "resumed", now), abortFirst: false, sendContinue: true });
    }
    return due;
  }

  /** When the next Hermes resume is due (for the caller's timer), if any. */
  nextDue(): number | undefined {
    let next: number | undefined;
    for (const pause of this.#pauses.values())
      if (pause.resumer === "hermes" && pause.resetAt !== undefined) next = Math.min(next ?? Infinity, pause.resetAt + RESUME_GRACE_MS);
    return next;
  }

  get(sessionID: string): Pause<Held> | undefined {
    const pause = this.#pauses.get(sessionID);
    return pause ? snapshot(pause) : undefined;
  }

  /** Every open pause (a stopping process logs the resumes it loses). */
  open(): Array<Pause<Held>> {
    return [...this.#pauses.values()].map(snapshot);
  }

  get size(): number {
    return this.#pauses.size;
  }

  #open(sessionID: string, words: string, resetAt: number | undefined, resumer: Resumer, now: number): Pause<Held> {
    const pause: Pause<Held> = { sessionID, since: now, words, resumer, held: [], ...(resetAt !== undefined ? { resetAt } : {}) };
    this.#pauses.set(sessionID, pause);
    return snapshot(pause);
  }

  #close(pause: Pause<Held>, kind: PauseEnd, now: number): Pause<Held> {
    this.#pauses.delete(pause.sessionID);
    pause.end = { kind, at: now };
    return snapshot(pause);
  }
}

function snapshot<Held>(pause: Pause<Held>): Pause<Held> {
  return { ...pause, held: [...pause.held], ...(pause.end ? { end: { ...pause.end } } : {}) };
}
