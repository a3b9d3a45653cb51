// A stalled run says so (issue 51): HERMES_STALL_AFTER (default 10 min, `off`). The detector
// (lib/walkaway/stall-detector.ts) decides; this feeds it the run's events, checks on a timer, posts one
// alert per stall with Stop (OpenCode's abort, as the Stop button does) and Keep waiting, and edits
// it when the stall ends ("Moving again") or the run does. A run waiting on one of its prompts, or
// held by a usage limit (its own message says so), raises none.
import { randomBytes } from "node:crypto";
import type { HermesEvent } from "../../hermes-events.ts";
import type { Strings } from "../../i18n/catalog.ts";
import type { Logger } from "../../system/log.ts";
import type { ActivityTracker } from "../../notices/activity.ts";
import { targetOf } from "../../progress/run-progress.ts";
import type { MessageOwner, Registry } from "../../registry/registry.ts";
import type { Claim } from "../../relay/update-handler.ts";
import { decodeCallback } from "../../telegram/codec.ts";
import { contextLine, projectName } from "../../telegram/render/render-context.ts";
import { renderStall, type StallState } from "../../telegram/render/render-walkaway.ts";
import { type Stall, StallDetector } from "../../walkaway/stall-detector.ts";
import type { Chat } from "../core/chat.ts";
import type { ActingTap } from "../core/gate.ts";
import type { InstanceLinks } from "../core/instance-links.ts";
import type { PostedMessage, SessionPosts } from "../core/session-posts.ts";

export interface StallAlertDeps {
  registry: Registry;
  links: Pick<InstanceLinks, "linkFor">;
  activity: Pick<ActivityTracker, "markStopped">;
  posts: Pick<SessionPosts, "post" | "edit">;
  chat: Pick<Chat, "answerCallback">;
  prompts: { closeRun(sessionID: string): Promise<void> };
  log: Logger;
  t: Strings;
  now: () => number;
  /** HERMES_STALL_AFTER in ms; 0: off. */
  afterMs: number;
  /** The digest (digest-feed.ts): a run whose alert went up ends as stalled there. */
  digest?: { stalled(sessionID: string): void };
  /** The run is held by a usage limit (limit-notices.ts): its wait is no stall. */
  paused(sessionID: string): boolean;
}

interface Alert {
  owner: MessageOwner;
  key: string;
  stall: Stall;
  message?: PostedMessage;
  posting?: Promise<void>;
}

export class StallAlerts {
  readonly #deps: StallAlertDeps;
  readonly #detector: StallDetector;
  readonly #directories = new Map<string, string>();
  /** Open prompts, by request, and the root session each belongs to. */
  readonly #prompts = new Map<string, string>();
  readonly #alerts = new Map<string, Alert>();
  readonly #byKey = new Map<string, string>();
  #timer: ReturnType<typeof setTimeout> | undefined;
  #timerAt = Infinity;
  #stopped = false;

  constructor(deps: StallAlertDeps) {
    this.#deps = deps;
    this.#detector = new StallDetector(deps.afterMs);
  }

  get enabled(): boolean {
    return this.#deps.afterMs > 0;
  }

  observe(directory: string, event: HermesEvent): void {
    if (!this.enabled || this.#stopped) return;
    const { now, registry } = this.#deps;
    switch (event.type) {
      case "question.asked":
      case "permission.asked": {
        const root = registry.sessions.rootOf(event.request.sessionID);
        if (this.#prompts.has(event.request.id)) return;
        this.#prompts.set(event.request.id, root);
        this.#detector.promptOpened(root);
        return;
      }
      case "question.replied":
      case "question.rejected":
      case "permission.replied": {
        const root = this.#prompts.get(event.requestID);
        if (root === undefined) return;
        this.#prompts.delete(event.requestID);
        this.#detector.promptClosed(root, now());
        this.#moved(root);
        this.#arm();
        return;
      }
      case "session.status": {
        const root = registry.sessions.rootOf(event.sessionID);
        if (event.status === "idle") this.#idle(root, event.sessionID);
        else if (root === event.sessionID) {
          this.#directories.set(root, directory);
          this.#detector.busy(root, now());
          this.#arm();
        }
        return;
      }
      case "session.idle":
        this.#idle(registry.sessions.rootOf(event.sessionID), event.sessionID);
        return;
      case "tool.step": {
        const root = registry.sessions.rootOf(event.sessionID);
        const detail = event.step.input ? targetOf(event.step.input)?.text : undefined;
        const call = {
          callID: event.step.callID,
          state: event.step.state,
          ...(event.step.tool ? { tool: event.step.tool } : {}),
          ...(detail ? { detail } : {}),
        };
        if (this.#detector.tool(root, call, now())) this.#moved(root);
        this.#arm();
        return;
      }
      case "message.text":
      case "message.delta":
      case "message.role":
      case "todo.updated": {
        const root = registry.sessions.rootOf(event.sessionID);
        if (this.#detector.event(root, now())) this.#moved(root);
        return;
      }
      default:
        return;
    }
  }

  claimTap(intent: ActingTap): Claim | undefined {
    const data = decodeCallback(intent.data);
    if (data?.action !== "stallStop" && data?.action !== "stallKeep") return undefined;
    const sessionID = this.#byKey.get(data.key);
    const alert = sessionID !== undefined ? this.#alerts.get(sessionID) : undefined;
    if (!alert) return undefined;
    return () => (data.action === "stallStop" ? this.#stop(intent, alert) : this.#keepWaiting(intent, alert));
  }

  unclaimedTap(intent: ActingTap): Promise<void> | undefined {
    const action = decodeCallback(intent.data)?.action;
    if (action !== "stallStop" && action !== "stallKeep") return undefined;
    return this.#deps.chat.answerCallback(intent.id, this.#deps.t.walkaway.stallGone);
  }

  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#timer);
  }

  #arm(): void {
    const next = this.#detector.nextCheck();
    if (next === undefined || this.#stopped) return;
    if (this.#timer !== undefined && this.#timerAt <= next) return;
    clearTimeout(this.#timer);
    this.#timerAt = next;
    this.#timer = setTimeout(() => this.#check(), Math.max(0, next - this.#deps.now()) + 50);
    this.#timer.unref?.();
  }

  #check(): void {
    const firedFor = this.#timerAt;
    this.#timer = undefined;
    this.#timerAt = Infinity;
    const now = this.#deps.now();
    for (const stall of this.#detector.check(now)) {
      // A run held by a usage limit has its own message: this window is no stall.
      if (this.#deps.paused(stall.sessionID)) {
        this.#detector.keepWaiting(stall.sessionID, now);
        continue;
      }
      this.#raise(stall);
    }
    // A clock that did not move with the timer (a test's) would have it fire again at once, for ever.
    if (this.#detector.nextCheck() === firedFor && now < firedFor) return;
    this.#arm();
  }

  #raise(stall: Stall): void {
    const directory = this.#directories.get(stall.sessionID);
    if (directory === undefined) return;
    const owner = { sessionID: stall.sessionID, directory };
    const key = randomBytes(6).toString("hex");
    const alert: Alert = { owner, key, stall };
    this.#alerts.set(stall.sessionID, alert);
    this.#byKey.set(key, stall.sessionID);
    this.#deps.digest?.stalled(stall.sessionID);
    this.#deps.log.info(
      { sessionID: stall.sessionID, quietMs: stall.quietMs, tool: stall.tool?.tool, runningMs: stall.tool?.runningMs },
      "run stalled: alert sent",
    );
    const rendered = renderStall(stall, { key, context: this.#context(owner), state: { kind: "up" } }, this.#deps.t);
    alert.posting = this.#deps.posts.post(rendered, { owner }).then((message) => {
      if (message) alert.message = message;
      alert.posting = undefined;
    });
  }

  /** The alert of the run ends: edited to say how. */
  async #settle(alert: Alert, state: StallState): Promise<void> {
    this.#alerts.delete(alert.owner.sessionID);
    this.#byKey.delete(alert.key);
    if (alert.posting) await alert.posting;
    if (!alert.message) return;
    const rendered = renderStall(alert.stall, { key: alert.key, context: this.#context(alert.owner), state }, this.#deps.t);
    await this.#deps.posts.edit(alert.message, rendered);
  }

  #moved(root: string): void {
    const alert = this.#alerts.get(root);
    if (alert) void this.#settle(alert, { kind: "moving" });
  }

  #idle(root: string, sessionID: string): void {
    if (root !== sessionID) return;
    this.#detector.idle(root);
    const alert = this.#alerts.get(root);
    if (alert) void this.#settle(alert, { kind: "ended" });
  }

  async #keepWaiting(intent: ActingTap, alert: Alert): Promise<void> {
    const { t, now } = this.#deps;
    await this.#deps.chat.answerCallback(intent.id, t.walkaway.keepWaitingNote);
    this.#detector.keepWaiting(alert.owner.sessionID, now());
    this.#deps.log.info({ sessionID: alert.owner.sessionID }, "stalled run: keep waiting");
    await this.#settle(alert, { kind: "waiting", windowMs: this.#deps.afterMs });
    this.#arm();
  }

  async #stop(intent: ActingTap, alert: Alert): Promise<void> {
    const { t, links, activity, log, prompts } = this.#deps;
    await this.#deps.chat.answerCallback(intent.id, t.walkaway.stopNote);
    const { sessionID, directory } = alert.owner;
    // Its end is told here: the idle the abort brings does not edit it too.
    this.#alerts.delete(sessionID);
    this.#byKey.delete(alert.key);
    const link = links.linkFor(directory);
    // No "Done" for a run stopped from the phone, as with Stop.
    const undo = activity.markStopped(sessionID);
    const outcome = link ? await link.opencode.abortSession(sessionID) : ({ ok: false, gone: false, error: t.talk.notRunning } as const);
    log.info({ sessionID, outcome }, "stalled run stopped from the phone");
    if (!outcome.ok) {
      undo();
      this.#alerts.set(sessionID, alert);
      this.#byKey.set(alert.key, sessionID);
      const error = outcome.gone ? t.talk.sessionGone : outcome.error;
      if (alert.message) {
        const rendered = renderStall(alert.stall, { key: alert.key, context: this.#context(alert.owner), state: { kind: "stop-failed", error } }, t);
        await this.#deps.posts.edit(alert.message, rendered);
      }
      return;
    }
    await prompts.closeRun(sessionID);
    await this.#settle(alert, { kind: "stopped" });
  }

  #context(owner: MessageOwner): ReturnType<typeof contextLine> {
    const title = this.#deps.registry.sessions.title(owner.sessionID);
    return contextLine({ project: projectName(owner.directory), t: this.#deps.t, ...(title ? { sessionTitle: title } : {}) });
  }
}
