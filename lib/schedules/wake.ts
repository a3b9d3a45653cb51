// The one timer scheduled runs need while OpenCode only waits: it sleeps until the next moment
// anything of this process' bot is due (a run in a project it serves, or another's run turning
// missed), and at least every RECHECK_MS looks whether the schedules file changed (another process
// added or cancelled one). It reads only the file's size and time until the file changes, loads
// nothing, and is unref'd: it never keeps a process alive. When something is due, `onDue` runs
// (the bridge loads then, claims what is due under the store's lock, and starts the runs).
import { nextLook, type Here } from "./due.ts";
import { REAL_PACE, type SchedulePace } from "./pace.ts";
import type { Schedule } from "./schedule.ts";
import type { ScheduleStore } from "./store.ts";

export const RECHECK_MS = REAL_PACE.recheckMs;

export interface WakeOptions {
  store: Pick<ScheduleStore, "read" | "stamp">;
  /** Who is looking (bot, chat, the projects this process serves now); undefined: nothing to look for. */
  here: () => Here | undefined;
  /** Something is due: claim and run it. The next look waits for it. */
  onDue: () => Promise<void>;
  now?: () => number;
  recheckMs?: number;
  /** The schedules' minute and late limit (pace.ts); the real ones by default. */
  pace?: SchedulePace;
}

export class ScheduleWake {
  readonly #options: WakeOptions;
  readonly #now: () => number;
  #timer?: ReturnType<typeof setTimeout>;
  #stamp?: string;
  #schedules: readonly Schedule[] = [];
  #running = false;
  #stopped = false;
  /** The moment last found due, and when to try it again: still due after `onDue` (nothing could be claimed), it is retried after RECHECK_MS, not at once. */
  #lastDue?: number;
  #retryAt = 0;

  constructor(options: WakeOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
  }

  /** Looks now and arms the timer. */
  start(): void {
    this.#look();
  }

  /** The schedules changed in this process: read them again and re-arm. */
  refresh(): void {
    this.#stamp = undefined;
    if (!this.#running) this.#look();
  }

  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#timer);
  }

  #look(): void {
    clearTimeout(this.#timer);
    if (this.#stopped) return;
    const here = this.#options.here();
    const stamp = this.#options.store.stamp();
    if (stamp !== this.#stamp) {
      const read = this.#options.store.read();
      this.#schedules = read.ok ? read.schedules : [];
      this.#stamp = stamp;
    }
    const pace = this.#options.pace ?? REAL_PACE;
    const at = here ? nextLook(this.#schedules, here, pace.lateLimitMs) : undefined;
    const now = this.#now();
    const recheck = this.#options.recheckMs ?? pace.recheckMs;
    if (at !== undefined && at <= now && (at !== this.#lastDue || now >= this.#retryAt)) {
      this.#lastDue = at;
      this.#retryAt = now + recheck;
      this.#due();
      return;
    }
    const wait = at === undefined ? recheck : at <= now ? this.#retryAt - now : Math.min(recheck, at - now);
    this.#timer = setTimeout(() => this.#look(), Math.max(0, wait));
    this.#timer.unref?.();
  }

  #due(): void {
    this.#running = true;
    void this.#options
      .onDue()
      .catch(() => undefined)
      .finally(() => {
        this.#running = false;
        // What was claimed moved the file on: read it again.
        this.#stamp = undefined;
        this.#look();
      });
  }
}
