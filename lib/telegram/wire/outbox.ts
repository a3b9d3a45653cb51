// The one way out to Telegram for messages. It paces per chat and overall (pacer.ts), waits out
// 429s exactly as told, retries server trouble and outages until Telegram is back (a prompt that
// never reaches the phone is the worst failure Hermes can have; the first call that finds Telegram
// back ends every backoff, reachability.ts), sends new prompts ahead of edits (a prompt spends the
// chat's budget at once; everything else leaves room for prompts), and collapses queued edits of
// one message into one (the latest state wins). Live progress is spare traffic (`update`): lowest
// priority, latest state wins, spaced out by the pacer. Prompts have a lane of their own: one
// never waits for another kind of call still under way; answers to a person's action
// (`Priority.Answer`: a command's reply, a tap's confirmation, a list) have the next one, so a tap
// in a busy group is answered after prompts but before progress, notices and chores.
import type { Logger } from "../../system/log.ts";
import { TelegramApiError } from "./api.ts";
import { NotSentError } from "./upload-source.ts";
import { errorText } from "../../util/error-text.ts";
import { Pacer, TELEGRAM_LIMITS, type PaceLimits, type Urgency } from "./pacer.ts";
import type { Reachability } from "./reachability.ts";
import { retryWait, whenBack, type RetryWait } from "./retry-wait.ts";
import { CALL_TIMEOUT_MS, RETRY_MAX_MS, RETRY_MIN_MS } from "./timeouts.ts";
import { withTimeout } from "../../util/with-timeout.ts";

export interface OutboxOptions {
  logger: Logger;
  /** `false` turns pacing off (tests with an in-memory Telegram). */
  limits?: PaceLimits | false;
  now?: () => number;
  /** A call without an answer after this long counts as failed (and is retried). */
  callTimeoutMs?: number;
  retryMinMs?: number;
  retryMaxMs?: number;
  /** Where Telegram being back is heard: jobs waiting out a backoff go at once (a retry_after still holds). */
  reachability?: Reachability;
}

/**
 * Highest first: a new prompt must not wait behind edits of old ones, nor an answer to a person's
 * tap or command behind progress and notices. Each sender says which it sends.
 */
export enum Priority {
  Prompt = 0,
  /** What answers a person's action: a command's reply, a confirmation, a list, a picker's edit. */
  Answer = 1,
  /**
   * What a person or the agent waits for that answers no tap: a run's Done notice and its spoken
   * answer, a file the agent sent (the tool call waits for it), the first sight of a running command
   * on the progress message. Not the answers' lane (a large upload must not hold up a tap's
   * answer), but ahead of everything else there; its budget is an answer's (one slot left to
   * prompts, no waiting while prompts flow), the first sight's its own (the last three slots left,
   * an edit leaves five; 2 s after a prompt, as an edit), spaced like its run's progress.
   */
  Awaited = 2,
  Edit = 3,
  Chore = 4,
  /** Spare traffic: only what the budget has left after everything else (see pacer.ts). */
  Progress = 5,
}

/** How an `update` spends its key's spacing. */
export interface UpdateOptions {
  /**
   * Spare traffic that no command's first sight is expected to follow (the answer being written):
   * it may spend its key's last token, which other spare calls leave to a first sight (pacer.ts).
   */
  lastToken?: boolean;
}

/** Builds the call at the moment it can go out, or says it is no longer wanted (undefined). */
export type Prepare<T> = () => (() => Promise<T>) | undefined;

interface Job {
  chatId: number;
  priority: Priority;
  seq: number;
  key?: string;
  prepare: Prepare<unknown>;
  /** Retry transient failures for as long as the job is wanted (prompts and their edits). */
  persistent: boolean;
  /** An `update` job: its key is spaced out by the pacer. */
  spaced?: boolean;
  /** Spare traffic that may spend its key's last token (`UpdateOptions`). */
  lastToken?: boolean;
  attempts: number;
  /** When it was queued (its wait, in the log of its call). */
  queuedAt: number;
  /** This call's own timeout (a large upload); the outbox's otherwise. */
  timeoutMs?: number;
  wait: RetryWait;
  settle: Array<{ resolve(value: unknown): void; reject(error: unknown): void }>;
}

const HOUSEKEEPING_ATTEMPTS = 5;

type Lane = "prompt" | "answer" | "other";

/**
 * Calls go out one at a time per lane: a prompt (and an edit the user waits for) never waits for
 * an answer, an edit, a notice or progress still under way, nor an answer for the last three.
 */
function laneOf(job: Job): Lane {
  return job.priority === Priority.Prompt ? "prompt" : job.priority === Priority.Answer ? "answer" : "other";
}

export class Outbox {
  readonly #log: Logger;
  readonly #pacer?: Pacer;
  readonly #now: () => number;
  readonly #callTimeoutMs: number;
  readonly #retry: { minMs: number; maxMs: number };
  readonly #queue: Job[] = [];
  readonly #queuedEdits = new Map<string, Job>();
  #seq = 0;
  #wake?: () => void;
  /** One call at a time per lane (see `laneOf`), and the calls still under way. */
  readonly #busyLanes = new Set<Lane>();
  /** The messages (edit and update keys) with a call under way. */
  readonly #busyKeys = new Set<string>();
  readonly #inFlight = new Set<Promise<void>>();
  #stopped = false;
  /** No prompts will follow: what is queued may spend the whole budget (see `finishing`). */
  #finishing = false;
  readonly #loop: Promise<void>;
  readonly #unsubscribe?: () => void;

  constructor(options: OutboxOptions) {
    this.#log = options.logger;
    this.#now = options.now ?? Date.now;
    if (options.limits !== false) this.#pacer = new Pacer(options.limits ?? TELEGRAM_LIMITS, this.#now());
    this.#callTimeoutMs = options.callTimeoutMs ?? CALL_TIMEOUT_MS;
    this.#retry = { minMs: options.retryMinMs ?? RETRY_MIN_MS, maxMs: options.retryMaxMs ?? RETRY_MAX_MS };
    this.#unsubscribe = options.reachability?.onBack(() => this.#telegramBack());
    this.#loop = this.#run();
  }

  /** A new message at `priority` (its lane); resolves undefined when `prepare` decided it is no longer wanted. */
  send<T>(chatId: number, prepare: Prepare<T>, priority: Priority = Priority.Prompt): Promise<T | undefined> {
    return this.#enqueue({ chatId, priority, prepare, persistent: true });
  }

  /**
   * An upload someone waits for (the agent's file, a spoken answer): a new message at
   * `Priority.Awaited`, in the lane that is not the prompts' nor the answers' (neither waits for it,
   * however long it takes), retried like a send while Telegram is away, with its own timeout
   * (`timeoutMs`, for a large file).
   */
  upload<T>(chatId: number, prepare: Prepare<T>, timeoutMs: number): Promise<T | undefined> {
    return this.#enqueue({ chatId, priority: Priority.Awaited, prepare, persistent: true, timeoutMs });
  }

  /**
   * An edit of `messageId`; a queued edit of the same message is replaced by this one (and takes
   * its priority). `Priority.Prompt` for what the user waits to see (a tapped prompt still open),
   * `Priority.Answer` for an answer to a tap (a confirmation, a picker's next page).
   */
  edit(chatId: number, messageId: number, prepare: Prepare<void>, priority: Priority = Priority.Edit): Promise<void> {
    const key = `${chatId}:${messageId}`;
    const queued = this.#queuedEdits.get(key);
    if (queued) {
      this.#replace(queued, prepare, priority);
      return new Promise((resolve, reject) => queued.settle.push({ resolve: () => resolve(), reject }));
    }
    return this.#enqueue({ chatId, priority, prepare, persistent: true, key }).then(() => undefined);
  }

  /**
   * Latest-wins work under `key` (one message's whole life: its send, then its edits): a queued job
   * under the same key is replaced and takes this priority. `prepare` runs when the job may go out
   * and builds the call from the state of that moment (or says nothing changed). At
   * `Priority.Progress` the pacer spaces the key's calls and gives them only spare budget.
   */
  update<T>(chatId: number, key: string, prepare: Prepare<T>, priority: Priority = Priority.Progress, options: UpdateOptions = {}): Promise<T | undefined> {
    const lastToken = options.lastToken === true;
    const queued = this.#queuedEdits.get(key);
    if (queued) {
      this.#replace(queued, prepare, priority, lastToken);
      queued.persistent = priority !== Priority.Progress;
      return new Promise((resolve, reject) => queued.settle.push({ resolve: resolve as (value: unknown) => void, reject }));
    }
    return this.#enqueue({ chatId, priority, prepare, persistent: priority !== Priority.Progress, key, spaced: true, lastToken });
  }

  /** Best effort: deleting a helper message, stripping a stale keyboard, attaching a file. */
  chore<T>(chatId: number, call: () => Promise<T>): Promise<T | undefined> {
    return this.#enqueue({ chatId, priority: Priority.Chore, prepare: () => call, persistent: false });
  }

  /**
   * The sender is closing and no prompt will follow: queued edits (the last state of its prompts)
   * no longer leave room for prompts, so they go out while the budget allows instead of being
   * dropped by `stop`.
   */
  finishing(): void {
    this.#finishing = true;
    this.#wake?.();
  }

  /** Ends the loop; what is still queued fails with "outbox stopped". */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#unsubscribe?.();
    this.#wake?.();
    await this.#loop;
    await Promise.all(this.#inFlight);
    const dropped = this.#queue.splice(0);
    if (dropped.length > 0) this.#log.warn({ dropped: dropped.length }, "outbox stopped with messages still queued");
    for (const job of dropped) for (const waiter of job.settle) waiter.reject(new Error("outbox stopped"));
    this.#queuedEdits.clear();
  }

  get pending(): number {
    return this.#queue.length;
  }

  /**
   * A queued job gets a newer state, the caller's priority and its say on the key's last token. The
   * loop may be asleep until the old job's time (spare traffic waits for the window to drain, up to
   * a minute, or for its key's tokens): raised, or allowed the last token, it looks again.
   */
  #replace(queued: Job, prepare: Prepare<unknown>, priority: Priority, lastToken = false): void {
    const sooner = priority < queued.priority || (lastToken && !queued.lastToken);
    queued.prepare = prepare;
    queued.priority = priority;
    queued.lastToken = lastToken;
    if (sooner) this.#wake?.();
  }

  #enqueue<T>(
    spec: Pick<Job, "chatId" | "priority" | "prepare" | "persistent"> & { key?: string; spaced?: boolean; lastToken?: boolean; timeoutMs?: number },
  ): Promise<T | undefined> {
    if (this.#stopped) return Promise.reject(new Error("outbox stopped"));
    return new Promise((resolve, reject) => {
      const job: Job = {
        ...spec,
        seq: this.#seq++,
        attempts: 0,
        queuedAt: this.#now(),
        wait: { until: 0, told: false },
        settle: [{ resolve: resolve as (value: unknown) => void, reject }],
      };
      this.#queue.push(job);
      if (job.key) this.#queuedEdits.set(job.key, job);
      this.#wake?.();
    });
  }

  async #run(): Promise<void> {
    while (!this.#stopped) {
      const now = this.#now();
      const { job, wakeAt } = this.#next(now);
      if (!job) {
        await this.#sleep(wakeAt === undefined ? undefined : wakeAt - now);
        continue;
      }
      this.#queue.splice(this.#queue.indexOf(job), 1);
      if (job.key) this.#queuedEdits.delete(job.key);
      const call = job.prepare();
      if (!call) {
        this.#log.debug({ chatId: job.chatId, key: job.key, priority: Priority[job.priority] }, "Telegram call no longer needed");
        for (const waiter of job.settle) waiter.resolve(undefined);
        continue;
      }
      const lane = laneOf(job);
      this.#busyLanes.add(lane);
      if (job.key !== undefined) this.#busyKeys.add(job.key);
      const urgency = this.#urgency(job);
      // Where a group's budget goes (HERMES_LOG_LEVEL=debug): every call with its lane, its priority and how long it waited.
      this.#log.debug(
        { chatId: job.chatId, key: job.key, lane, priority: Priority[job.priority], urgency, waitedMs: now - job.queuedAt, attempt: job.attempts + 1 },
        "Telegram call",
      );
      const answered = this.#pacer?.take(job.chatId, now, urgency, job.spaced ? job.key : undefined);
      const done = this.#execute(job, call, answered).finally(() => {
        this.#busyLanes.delete(lane);
        if (job.key !== undefined) this.#busyKeys.delete(job.key);
        this.#inFlight.delete(done);
        this.#wake?.();
      });
      this.#inFlight.add(done);
    }
  }

  async #execute(job: Job, call: () => Promise<unknown>, answered: ((at: number) => void) | undefined): Promise<void> {
    try {
      const timeoutMs = job.timeoutMs ?? this.#callTimeoutMs;
      const result = await withTimeout(call(), timeoutMs, () => new TelegramApiError(0, `no answer within ${timeoutMs} ms`));
      answered?.(this.#now());
      for (const waiter of job.settle) waiter.resolve(result);
    } catch (error) {
      answered?.(this.#now());
      this.#failed(job, error);
    }
  }

  /** The most urgent job that may go out now, or when to look again. */
  #next(now: number): { job?: Job; wakeAt?: number } {
    let best: Job | undefined;
    let wakeAt: number | undefined;
    for (const job of this.#queue) {
      // One call at a time per lane, and never two for one message: its edits stay in order.
      if (this.#busyLanes.has(laneOf(job)) || (job.key !== undefined && this.#busyKeys.has(job.key))) continue;
      const keyed = job.spaced && (job.priority === Priority.Progress || job.priority === Priority.Awaited) ? job.key : undefined;
      const at = Math.max(
        job.wait.until,
        this.#pacer?.readyAt(job.chatId, now, this.#urgency(job), keyed, { spare: job.priority === Priority.Progress, lastToken: job.lastToken === true }) ??
          now,
      );
      if (at > now) {
        wakeAt = wakeAt === undefined ? at : Math.min(wakeAt, at);
        continue;
      }
      if (!best || job.priority < best.priority || (job.priority === best.priority && job.seq < best.seq)) best = job;
    }
    return best ? { job: best } : wakeAt === undefined ? {} : { wakeAt };
  }

  #urgency(job: Job): Urgency {
    if (job.priority === Priority.Prompt || this.#finishing) return "prompt";
    if (job.priority === Priority.Awaited) return job.spaced ? "deferrable" : "answer";
    return job.priority === Priority.Answer ? "answer" : "deferrable";
  }

  #failed(job: Job, error: unknown): void {
    const transient = error instanceof TelegramApiError ? error.isTransient : !(error instanceof NotSentError);
    job.attempts++;
    if (!transient || (!job.persistent && job.attempts >= HOUSEKEEPING_ATTEMPTS) || this.#stopped) {
      for (const waiter of job.settle) waiter.reject(error);
      return;
    }
    const now = this.#now();
    const retryAfter = error instanceof TelegramApiError ? error.retryAfterSeconds : undefined;
    job.wait = retryWait(retryAfter, job.attempts, now, this.#retry);
    if (retryAfter !== undefined) {
      this.#pacer?.block(job.chatId, retryAfter, now);
      this.#log.warn({ chatId: job.chatId, retryAfter }, "Telegram flood control: waiting as told");
    } else {
      this.#log.warn({ err: errorText(error), attempt: job.attempts, delayMs: job.wait.until - now }, "Telegram call failed; retrying");
    }
    // Back in line: a newer edit of the same message may already be queued and wins.
    if (job.key && this.#queuedEdits.has(job.key)) {
      this.#queuedEdits.get(job.key)!.settle.push(...job.settle);
      return;
    }
    this.#queue.push(job);
    if (job.key) this.#queuedEdits.set(job.key, job);
  }

  /** Another call found Telegram back: what waits out a backoff goes now (in the usual order and pace). */
  #telegramBack(): void {
    const now = this.#now();
    let released = 0;
    for (const job of this.#queue) {
      const wait = whenBack(job.wait, now);
      if (wait !== job.wait) released++;
      job.wait = wait;
    }
    if (released === 0) return;
    this.#log.info({ released }, "Telegram is back: sending what waited");
    this.#wake?.();
  }

  #sleep(ms: number | undefined): Promise<void> {
    return new Promise((resolve) => {
      const timer = ms === undefined ? undefined : setTimeout(done, Math.max(0, ms));
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.#wake = () => {
        this.#wake = undefined;
        done();
      };
    });
  }
}
