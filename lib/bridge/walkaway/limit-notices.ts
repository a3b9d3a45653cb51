// A run held by a usage limit, on the phone (issue 51): one message per pause (lib/walkaway/limit-pause.ts
// decides; this posts it once and edits it), with Resume now and Cancel. Where OpenCode gave up,
// this process sends the session `continue` at the reset time, once (a pause lives in the process
// whose OpenCode runs the session, and only there; a restart loses it, and says so in the log).
// What the phone sends the session meanwhile is held and sent, in order, after the resume.
import { randomBytes } from "node:crypto";
import { errorText } from "../../util/error-text.ts";
import type { HermesEvent } from "../../hermes-events.ts";
import type { Strings } from "../../i18n/catalog.ts";
import type { Logger } from "../../system/log.ts";
import type { ActivityTracker } from "../../notices/activity.ts";
import type { MessageOwner, Registry } from "../../registry/registry.ts";
import type { Claim } from "../../relay/update-handler.ts";
import { decodeCallback } from "../../telegram/codec.ts";
import { contextLine, projectName } from "../../telegram/render/render-context.ts";
import { renderPause } from "../../telegram/render/render-walkaway.ts";
import { escapeHtml, joinHtml } from "../../text/html.ts";
import { LimitPauses, type Pause, type Resume } from "../../walkaway/limit-pause.ts";
import type { Chat } from "../core/chat.ts";
import type { ActingTap } from "../core/gate.ts";
import type { InstanceLinks } from "../core/instance-links.ts";
import type { PostedMessage, SessionPosts } from "../core/session-posts.ts";
import type { UserMessage } from "../runs/talk-back.ts";

/** What Hermes sends a session to resume it. */
export const RESUME_PROMPT = "continue";
/** Edits of a waiting pause at most this often (1.x retries every few seconds before it gives up); its end is shown at once. */
const EDIT_EVERY_MS = 15_000;
/** How long Resume now waits for OpenCode's own wait to end (its abort) before it sends `continue`. */
const ABORT_SETTLE_MS = 10_000;

/** A message from the phone held while the run waits. */
export interface HeldMessage {
  owner: MessageOwner;
  userMessage: UserMessage;
  text: string;
  byVoice: boolean;
}

export interface LimitNoticeDeps {
  registry: Registry;
  links: Pick<InstanceLinks, "linkFor">;
  activity: Pick<ActivityTracker, "markStopped">;
  posts: Pick<SessionPosts, "post" | "edit">;
  chat: Pick<Chat, "answerCallback" | "reply">;
  log: Logger;
  t: Strings;
  now: () => number;
  /** Sends a held message on (lib/bridge/runs/talk-back.ts). */
  talkBack(owner: MessageOwner, userMessage: UserMessage, text: string, byVoice: boolean): Promise<void>;
}

interface Shown {
  owner: MessageOwner;
  key: string;
  message?: PostedMessage;
  posting?: Promise<void>;
  editedAt: number;
  editTimer?: ReturnType<typeof setTimeout>;
  /** What the message shows now: an edit to the same is never sent (Telegram refuses it). */
  showing?: string;
}

export class LimitNotices {
  readonly #deps: LimitNoticeDeps;
  readonly #pauses = new LimitPauses<HeldMessage>();
  /** The pause message of each session, while its pause is open. */
  readonly #shown = new Map<string, Shown>();
  readonly #byKey = new Map<string, string>();
  /** Resume now waiting for OpenCode's abort to end its own wait. */
  readonly #idleWaiters = new Map<string, () => void>();
  /** Resumed runs whose held messages go when they end. */
  readonly #afterRun = new Map<string, Pause<HeldMessage>>();
  #timer: ReturnType<typeof setTimeout> | undefined;
  #stopped = false;

  constructor(deps: LimitNoticeDeps) {
    this.#deps = deps;
  }

  observe(directory: string, event: HermesEvent): void {
    if (this.#stopped) return;
    const { now, registry } = this.#deps;
    const sessionID = "sessionID" in event ? event.sessionID : undefined;
    if (sessionID === undefined || registry.sessions.get(sessionID)?.parentID) return;
    const owner = { sessionID, directory };
    switch (event.type) {
      case "session.status":
        if (event.status === "retry" && event.limit) this.#show(owner, this.#pauses.retrying(sessionID, event.message ?? "", event.next, now()));
        if (event.status === "idle") this.#idle(owner);
        return;
      case "session.idle":
        this.#idle(owner);
        return;
      case "session.error":
        if (event.limit) {
          this.#show(owner, this.#pauses.gaveUp(sessionID, event.message, now()));
          this.#arm();
        } else if (event.name !== "MessageAbortedError") this.#ended(owner, this.#pauses.ended(sessionID, now()));
        return;
      case "message.text":
      case "message.delta":
      case "tool.step":
        if (this.#pauses.get(sessionID)?.resumer === "opencode") this.#ended(owner, this.#pauses.moving(sessionID, now()));
        return;
      default:
        return;
    }
  }

  /** A message from the phone for this session: held while a resume is due (true), else sent as usual (false). */
  hold(owner: MessageOwner, userMessage: UserMessage, text: string, byVoice: boolean): boolean {
    if (this.#stopped) return false;
    const root = this.#deps.registry.sessions.rootOf(owner.sessionID);
    const pause = this.#pauses.hold(root, { owner, userMessage, text, byVoice });
    if (!pause) return false;
    this.#deps.log.info({ sessionID: root, held: pause.held.length }, "message from the phone held until the run resumes");
    void this.#deps.chat.reply(this.#deps.t.walkaway.heldNote, userMessage.messageId, userMessage.threadId);
    this.#show({ sessionID: root, directory: owner.directory }, pause);
    return true;
  }

  /** The run is held by a usage limit now. */
  isPaused(sessionID: string): boolean {
    return this.#pauses.get(sessionID) !== undefined;
  }

  claimTap(intent: ActingTap): Claim | undefined {
    const data = decodeCallback(intent.data);
    if (data?.action !== "pauseResume" && data?.action !== "pauseCancel") return undefined;
    const sessionID = this.#byKey.get(data.key);
    if (!sessionID || !this.#pauses.get(sessionID)) return undefined;
    return () => (data.action === "pauseResume" ? this.#resumeNow(intent, sessionID) : this.#cancel(intent, sessionID));
  }

  unclaimedTap(intent: ActingTap): Promise<void> | undefined {
    const action = decodeCallback(intent.data)?.action;
    if (action !== "pauseResume" && action !== "pauseCancel") return undefined;
    return this.#deps.chat.answerCallback(intent.id, this.#deps.t.walkaway.pauseGone);
  }

  /** Stops the timers; a resume still due is lost with this process, and its log says so. */
  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#timer);
    for (const shown of this.#shown.values()) clearTimeout(shown.editTimer);
    for (const pause of this.#pauses.open())
      if (pause.resumer === "hermes")
        this.#deps.log.warn(
          { sessionID: pause.sessionID, resetAt: pause.resetAt, held: pause.held.length },
          "a pending resume is lost: this process stops before the reset",
        );
  }

  // ── the pause's message ──

  #show(owner: MessageOwner, pause: Pause<HeldMessage> | undefined): void {
    if (!pause) return;
    let shown = this.#shown.get(owner.sessionID);
    if (!shown) {
      const key = randomBytes(6).toString("hex");
      shown = { owner, key, editedAt: 0 };
      this.#shown.set(owner.sessionID, shown);
      this.#byKey.set(key, owner.sessionID);
      this.#deps.log.info({ sessionID: owner.sessionID, resetAt: pause.resetAt, resumer: pause.resumer }, "run held by a usage limit");
      const posting = this.#post(shown, pause);
      shown.posting = posting;
      return;
    }
    if (!pause.end && this.#deps.now() - shown.editedAt < EDIT_EVERY_MS) {
      if (!shown.editTimer) {
        const target = shown;
        shown.editTimer = setTimeout(
          () => {
            target.editTimer = undefined;
            const latest = this.#pauses.get(owner.sessionID);
            if (latest) void this.#edit(target, latest);
          },
          EDIT_EVERY_MS - (this.#deps.now() - shown.editedAt),
        );
        shown.editTimer.unref?.();
      }
      return;
    }
    void this.#edit(shown, pause);
  }

  async #post(shown: Shown, pause: Pause<HeldMessage>): Promise<void> {
    shown.editedAt = this.#deps.now();
    const rendered = renderPause(pause, { now: this.#deps.now(), key: shown.key, context: this.#context(shown.owner) }, this.#deps.t);
    const message = await this.#deps.posts.post(rendered, { owner: shown.owner });
    if (message) shown.message = message;
    shown.showing = JSON.stringify(rendered);
    shown.posting = undefined;
    // What changed while it was being sent.
    const latest = this.#pauses.get(shown.owner.sessionID);
    if (latest && (latest.held.length !== pause.held.length || latest.resetAt !== pause.resetAt || latest.resumer !== pause.resumer))
      await this.#edit(shown, latest);
  }

  async #edit(shown: Shown, pause: Pause<HeldMessage>, dropped = 0): Promise<void> {
    if (shown.posting) await shown.posting;
    clearTimeout(shown.editTimer);
    shown.editTimer = undefined;
    shown.editedAt = this.#deps.now();
    if (!shown.message) return;
    const view = { now: this.#deps.now(), key: shown.key, context: this.#context(shown.owner), ...(dropped > 0 ? { dropped } : {}) };
    const rendered = renderPause(pause, view, this.#deps.t);
    const showing = JSON.stringify(rendered);
    if (showing === shown.showing) return;
    shown.showing = showing;
    await this.#deps.posts.edit(shown.message, rendered);
  }

  #context(owner: MessageOwner): ReturnType<typeof contextLine> {
    const title = this.#deps.registry.sessions.title(owner.sessionID);
    return contextLine({ project: projectName(owner.directory), t: this.#deps.t, ...(title ? { sessionTitle: title } : {}) });
  }

  /** The pause ended: its message says how (once), and what it held is sent on. */
  #ended(owner: MessageOwner, pause: Pause<HeldMessage> | undefined, dropped = 0): void {
    if (!pause?.end) return;
    const shown = this.#shown.get(owner.sessionID);
    this.#shown.delete(owner.sessionID);
    if (shown) this.#byKey.delete(shown.key);
    this.#deps.log.info({ sessionID: owner.sessionID, end: pause.end.kind, held: pause.held.length }, "usage-limit pause ended");
    const edited = shown ? this.#edit(shown, pause, dropped) : Promise.resolve();
    // OpenCode's retry went through: what was held goes when that run ends (1.1.53 leaves a prompt sent during a run's last step unanswered).
    if (pause.end.kind === "resumed-by-opencode" && pause.held.length > 0) this.#afterRun.set(owner.sessionID, pause);
    else if (pause.end.kind === "ended") void edited.then(() => this.#sendHeld(pause));
  }

  #idle(owner: MessageOwner): void {
    this.#idleWaiters.get(owner.sessionID)?.();
    const resumed = this.#afterRun.get(owner.sessionID);
    this.#afterRun.delete(owner.sessionID);
    if (resumed) void this.#sendHeld(resumed);
    // A run OpenCode was to resume went idle without a limit error: stopped at the terminal, or it went on and finished.
    if (this.#pauses.get(owner.sessionID)?.resumer === "opencode") this.#ended(owner, this.#pauses.ended(owner.sessionID, this.#deps.now()));
  }

  // ── resuming ──

  #arm(): void {
    clearTimeout(this.#timer);
    const next = this.#pauses.nextDue();
    if (next === undefined || this.#stopped) return;
    this.#timer = setTimeout(() => this.#fire(next), Math.max(0, next - this.#deps.now()));
    this.#timer.unref?.();
  }

  #fire(firedFor: number): void {
    // The timer's time has come, whatever a clock a moment behind says (a timer may fire a millisecond early).
    for (const resume of this.#pauses.due(Math.max(this.#deps.now(), firedFor))) void this.#resume(resume, "at the reset time");
    this.#arm();
  }

  async #resume(resume: Resume<HeldMessage>, why: string): Promise<void> {
    const { links, log, t } = this.#deps;
    const { pause } = resume;
    const shown = this.#shown.get(pause.sessionID);
    this.#shown.delete(pause.sessionID);
    if (shown) this.#byKey.delete(shown.key);
    const directory = shown?.owner.directory ?? pause.held[0]?.owner.directory;
    const link = directory !== undefined ? links.linkFor(directory) : undefined;
    if (resume.abortFirst && link) {
      // No "Done" for the run the abort ends: the resume goes on with it.
      this.#deps.activity.markStopped(pause.sessionID);
      const settled = new Promise<void>((resolve) => this.#idleWaiters.set(pause.sessionID, resolve));
      const outcome = await link.opencode.abortSession(pause.sessionID);
      log.info({ sessionID: pause.sessionID, outcome }, "OpenCode's own wait stopped for Resume now");
      if (outcome.ok) await Promise.race([settled, new Promise((resolve) => setTimeout(resolve, ABORT_SETTLE_MS).unref?.())]);
      this.#idleWaiters.delete(pause.sessionID);
    }
    const outcome = link
      ? await link.opencode.prompt(pause.sessionID, [{ type: "text", text: RESUME_PROMPT }])
      : ({ ok: false, gone: false, error: t.talk.notRunning } as const);
    log.info({ sessionID: pause.sessionID, outcome, why, held: pause.held.length }, "run resumed after a usage limit");
    if (shown) {
      if (outcome.ok) await this.#edit(shown, pause);
      else {
        const error = outcome.gone ? t.talk.sessionGone : outcome.error;
        const rendered = renderPause(pause, { now: this.#deps.now(), key: shown.key, context: this.#context(shown.owner) }, t);
        if (shown.message)
          await this.#deps.posts.edit(shown.message, {
            text: joinHtml([rendered.text, t.walkaway.resumeFailed(escapeHtml(error))], "\n"),
            keyboard: rendered.keyboard,
          });
      }
    }
    // What was held goes when the resumed run ends, in order (queued behind it, as OpenCode would).
    if (outcome.ok && pause.held.length > 0) this.#afterRun.set(pause.sessionID, pause);
  }

  async #sendHeld(pause: Pause<HeldMessage>): Promise<void> {
    for (const held of pause.held) {
      await this.#deps
        .talkBack(held.owner, held.userMessage, held.text, held.byVoice)
        .catch((error) => this.#deps.log.warn({ err: errorText(error), sessionID: pause.sessionID }, "could not send a held message"));
    }
  }

  async #resumeNow(intent: ActingTap, sessionID: string): Promise<void> {
    const resume = this.#pauses.resumeNow(sessionID, this.#deps.now());
    await this.#deps.chat.answerCallback(intent.id, resume ? this.#deps.t.walkaway.resumeNowNote : this.#deps.t.walkaway.pauseGone);
    if (!resume) return;
    this.#arm();
    await this.#resume(resume, "Resume now");
  }

  async #cancel(intent: ActingTap, sessionID: string): Promise<void> {
    const { links, log, t, now, activity } = this.#deps;
    const shown = this.#shown.get(sessionID);
    const cancel = this.#pauses.cancel(sessionID, now());
    await this.#deps.chat.answerCallback(intent.id, cancel ? t.walkaway.cancelNote : t.walkaway.pauseGone);
    if (!cancel) return;
    this.#arm();
    if (cancel.abortFirst && shown) {
      const link = links.linkFor(shown.owner.directory);
      const undo = activity.markStopped(sessionID);
      const outcome = link ? await link.opencode.abortSession(sessionID) : ({ ok: false, gone: false, error: t.talk.notRunning } as const);
      if (!outcome.ok) undo();
      log.info({ sessionID, outcome }, "OpenCode's own retry stopped: the usage-limit wait was cancelled");
    }
    this.#ended(shown?.owner ?? { sessionID, directory: "" }, cancel.pause, cancel.pause.held.length);
  }
}
