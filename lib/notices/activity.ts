// What each session is doing, and which of its changes deserve a notice on the phone. Pure.
// Low noise on purpose: a bridge that spams gets muted, and then its prompts are missed too.
// Bounded: a run's messages and last text are dropped when it ends, and of the idle sessions only
// the SESSIONS_KEPT heard of last are kept (busy ones always are).
import type { HermesEvent } from "../hermes-events.ts";
import type { NoticePolicy } from "./policy.ts";

export type Notice =
  | { kind: "done"; sessionID: string; busyMs: number; lastText?: string }
  | { kind: "failed"; sessionID: string; name: string; message: string }
  | { kind: "retrying"; sessionID: string; attempt?: number; message?: string };

interface SessionActivity {
  busySince?: number;
  /** The run was started (or continued) from the phone: its end is always worth telling. */
  fromPhone: boolean;
  retryReported: boolean;
  /** The run failed or was aborted: no "Done" for it. */
  ended: boolean;
  assistantMessages: string[];
  lastText?: string;
  failedAt?: number;
}

const REMEMBERED_MESSAGES = 20;
/** Sessions remembered (busy ones always are; /status lists these). */
export const SESSIONS_KEPT = 500;
const ABORTED = "MessageAbortedError";
const REPEATED_ERROR_MS = 10_000;

export class ActivityTracker {
  readonly #policy: NoticePolicy;
  readonly #sessions = new Map<string, SessionActivity>();

  constructor(policy: NoticePolicy) {
    this.#policy = policy;
  }

  /** Feeds one event; returns the notice it calls for, if any. `isRoot` tells sub-agent sessions apart. */
  observe(event: HermesEvent, now: number, isRoot: (sessionID: string) => boolean): Notice | undefined {
    switch (event.type) {
      case "session.status": {
        if (event.status === "idle") return this.#idle(event.sessionID, now, isRoot);
        const session = this.#session(event.sessionID);
        if (session.busySince === undefined) {
          // A run starts: the session is among the ones heard of last (see SESSIONS_KEPT).
          this.#sessions.delete(event.sessionID);
          this.#sessions.set(event.sessionID, session);
        }
        session.busySince ??= now;
        // A usage limit has its own message (bridge/walkaway/), edited as it waits: no "retrying" notice beside it.
        if (event.status !== "retry" || event.limit || session.retryReported || this.#policy.level === "off" || !isRoot(event.sessionID)) return undefined;
        session.retryReported = true;
        return {
          kind: "retrying",
          sessionID: event.sessionID,
          ...(event.attempt !== undefined ? { attempt: event.attempt } : {}),
          ...(event.message ? { message: event.message } : {}),
        };
      }
      case "session.idle":
        return this.#idle(event.sessionID, now, isRoot);
      case "session.error": {
        const session = this.#session(event.sessionID);
        // OpenCode 1.18 repeats an error just after the run went idle (with a stack trace): one notice.
        const repeated = session.busySince === undefined && session.failedAt !== undefined && now - session.failedAt < REPEATED_ERROR_MS;
        session.ended = session.busySince !== undefined;
        // A run ended by a usage limit is paused, not failed: its pause message says so (bridge/walkaway/).
        if (repeated || event.name === ABORTED || event.limit || this.#policy.level === "off" || !isRoot(event.sessionID)) return undefined;
        session.failedAt = now;
        return { kind: "failed", sessionID: event.sessionID, name: event.name, message: event.message };
      }
      case "message.role": {
        if (event.role !== "assistant") return undefined;
        const session = this.#session(event.sessionID);
        if (!session.assistantMessages.includes(event.messageID))
          session.assistantMessages = [...session.assistantMessages, event.messageID].slice(-REMEMBERED_MESSAGES);
        return undefined;
      }
      case "message.text": {
        const session = this.#sessions.get(event.sessionID);
        if (session?.assistantMessages.includes(event.messageID) && event.text.trim()) session.lastText = event.text;
        return undefined;
      }
      case "session.deleted":
        this.#sessions.delete(event.sessionID);
        return undefined;
      default:
        return undefined;
    }
  }

  /** A prompt from the phone starts (or queues) work whose end the user wants to hear about. */
  markFromPhone(sessionID: string): void {
    this.#session(sessionID).fromPhone = true;
  }

  /** Stopped from the phone: its end is no "Done" (the phone already says it stopped). Undo if the stop failed. */
  markStopped(sessionID: string): () => void {
    const session = this.#sessions.get(sessionID);
    if (!session || session.busySince === undefined) return () => undefined;
    const before = session.ended;
    session.ended = true;
    return () => {
      if (session.busySince !== undefined) session.ended = before;
    };
  }

  /** The busy run ends with no "Done": stopped from the phone, failed or aborted. */
  endsEarly(sessionID: string): boolean {
    const session = this.#sessions.get(sessionID);
    return session?.busySince !== undefined && session.ended;
  }

  /** The run going now will end with a Done notice (started from the phone, or worked long enough): its answer may show as it is written. */
  endsWithDone(sessionID: string, now: number): boolean {
    const session = this.#sessions.get(sessionID);
    if (this.#policy.level !== "all" || session?.busySince === undefined || session.ended) return false;
    return session.fromPhone || now - session.busySince >= this.#policy.doneAfterMs;
  }

  isBusy(sessionID: string): boolean {
    return this.#sessions.get(sessionID)?.busySince !== undefined;
  }

  /** Every session seen, busy first. */
  summary(): Array<{ sessionID: string; busy: boolean; busyMs?: number }> {
    const now = Date.now();
    return [...this.#sessions.entries()]
      .map(([sessionID, session]) =>
        session.busySince === undefined ? { sessionID, busy: false } : { sessionID, busy: true, busyMs: now - session.busySince },
      )
      .sort((a, b) => Number(b.busy) - Number(a.busy));
  }

  #idle(sessionID: string, now: number, isRoot: (sessionID: string) => boolean): Notice | undefined {
    const session = this.#sessions.get(sessionID);
    if (!session || session.busySince === undefined) return undefined; // idle anyway: nothing happened
    const busyMs = now - session.busySince;
    const worthIt = session.fromPhone || busyMs >= this.#policy.doneAfterMs;
    const notice: Notice | undefined =
      this.#policy.level === "all" && !session.ended && worthIt && isRoot(sessionID)
        ? { kind: "done", sessionID, busyMs, ...(session.lastText ? { lastText: session.lastText } : {}) }
        : undefined;
    session.busySince = undefined;
    session.fromPhone = false;
    session.retryReported = false;
    session.ended = false;
    session.assistantMessages = [];
    delete session.lastText;
    return notice;
  }

  #session(sessionID: string): SessionActivity {
    let session = this.#sessions.get(sessionID);
    if (!session) {
      session = { fromPhone: false, retryReported: false, ended: false, assistantMessages: [] };
      this.#sessions.set(sessionID, session);
      if (this.#sessions.size > SESSIONS_KEPT) this.#forgetOldestIdle(sessionID);
    }
    return session;
  }

  /** The idle session heard of first is forgotten (a busy one is kept: its run is still to be reported). */
  #forgetOldestIdle(kept: string): void {
    for (const [sessionID, session] of this.#sessions)
      if (session.busySince === undefined && sessionID !== kept) {
        this.#sessions.delete(sessionID);
        return;
      }
  }

  /** How many sessions are remembered. */
  get size(): number {
    return this.#sessions.size;
  }
}
