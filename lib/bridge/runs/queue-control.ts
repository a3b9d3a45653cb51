// The queue from the phone (issue 53, docs/phone.md#the-queue): a message the phone sends a busy
// session is held here, not sent (OpenCode would hand it to the model at the run's next step:
// docs/compatibility.md), with a notice that says its place and carries ✖ Remove and ⏩ Send now;
// when the run ends the session's first message is sent (the next one when that run ends, and so
// on). /queue lists what waits, oldest first (as a reply to a session's message or in its topic:
// that session's; alone: every session of this process). Remove takes one out, never sent; Send now
// (a red confirmation) aborts the run as Stop does (lib/bridge/runs/stop-control.ts) and puts the
// message first, so the run's end sends it. The order lives in lib/registry/message-queue.ts; this
// posts, edits and sends (through talk-back.ts' `send`).
import type { HermesEvent } from "../../hermes-events.ts";
import type { Strings } from "../../i18n/catalog.ts";
import type { ActivityTracker } from "../../notices/activity.ts";
import { MessageQueue, type Queued } from "../../registry/message-queue.ts";
import type { MessageRef } from "../../registry/prompt.ts";
import type { MessageOwner, Registry } from "../../registry/registry.ts";
import type { Claim } from "../../relay/update-handler.ts";
import type { Logger } from "../../system/log.ts";
import { decodeCallback, isActionOn, type CallbackData, type QueueAction } from "../../telegram/codec.ts";
import { projectName } from "../../telegram/render/render-context.ts";
import { renderQueuedNotice, renderQueuedOutcome, renderQueueList, renderSendNowConfirm, type QueuedView } from "../../telegram/render/render-queue.ts";
import { escapeWithin, joinHtml } from "../../text/html.ts";
import { reveal } from "../../text/reveal.ts";
import { errorText } from "../../util/error-text.ts";
import type { Chat } from "../core/chat.ts";
import type { ActingCommand, ActingTap, ActingText } from "../core/gate.ts";
import type { InstanceLinks } from "../core/instance-links.ts";
import { type PostedMessage, SessionPosts, type SessionPostDeps } from "../core/session-posts.ts";
import type { SessionTopics } from "../core/topics.ts";
import type { PromptLife } from "../prompts/prompt-life.ts";
import type { LiveProgress } from "./live-progress.ts";
import type { TalkBack, UserMessage } from "./talk-back.ts";

export interface QueueDeps {
  registry: Registry;
  activity: Pick<ActivityTracker, "isBusy" | "markStopped" | "markFromPhone">;
  /** With live progress on, the run a message waits behind is shown at once (it concerns the phone now). */
  progress?: Pick<LiveProgress, "showNow"> | undefined;
  links: Pick<InstanceLinks, "linkFor">;
  topics: Pick<SessionTopics, "ownerOf">;
  chat: Pick<Chat, "answerCallback">;
  /** After Send now's abort: the run's pending prompts are closed, as Stop does. */
  prompts: Pick<PromptLife, "closeRun">;
  /** Sends a message on, as if it had just been typed to an idle session. */
  talk: Pick<TalkBack, "send">;
  log: Logger;
  t: Strings;
  now: () => number;
}

/** A held message. */
interface Held {
  owner: MessageOwner;
  userMessage: UserMessage;
  text: string;
  byVoice: boolean;
  notice?: PostedMessage;
  posting?: Promise<void>;
}

/** `/queue` (or `/queue@bot`) typed as a reply: a reply starting with "/" arrives as text. */
const QUEUE_COMMAND = /^\/queue(?:@[A-Za-z0-9_]+)?\s*$/i;
/** A message sent on waits this long for its run to start before the next may go without it. */
const START_WAIT_MS = 30_000;
/** Lists remembered for their taps; the oldest go. */
const LIST_LIMIT = 50;
const WHY_LIMIT = 300;

export class QueueControl {
  readonly #deps: QueueDeps & { posts: SessionPosts };
  readonly #queue = new MessageQueue<Held>();
  /** Sessions a held message was just sent to: nothing more goes until their run has started (and ended). */
  readonly #starting = new Map<string, ReturnType<typeof setTimeout>>();
  /** /queue's lists this process posted: which sessions each shows (undefined: all). */
  readonly #lists = new Map<string, { sessions: ReadonlySet<string> | undefined }>();

  constructor(deps: QueueDeps & SessionPostDeps) {
    this.#deps = { ...deps, posts: new SessionPosts(deps, "a queue message") };
  }

  /** A message from the phone for a session: held while the session works (true), else sent as usual (false). */
  hold(owner: MessageOwner, userMessage: UserMessage, text: string, byVoice: boolean): boolean {
    const { registry, activity, links, log, now } = this.#deps;
    const root = registry.sessions.rootOf(owner.sessionID);
    const waits = activity.isBusy(root) || activity.isBusy(owner.sessionID) || this.#starting.has(root) || this.#queue.has(root);
    if (!waits || !links.linkFor(owner.directory)) return false;
    const held: Held = { owner, userMessage, text, byVoice };
    const added = this.#queue.add(root, held, now());
    if (!added) return false;
    log.info({ sessionID: root, place: added.place }, "message from the phone held until the run ends");
    held.posting = this.#postNotice(added.entry, added.place);
    // The run it waits behind concerns the phone now: its Done notice, its progress.
    activity.markFromPhone(root);
    if (this.#deps.progress) void this.#deps.progress.showNow(root);
    return true;
  }

  observe(_directory: string, event: HermesEvent): void {
    if (event.type === "session.deleted") {
      // Sent on, it fails, and the text is handed back (talk-back.ts): nothing typed is lost.
      for (const entry of this.#queue.drop(event.sessionID)) void this.#sendOn(entry);
      return;
    }
    if (event.type !== "session.status" && event.type !== "session.idle") return;
    const { sessionID } = event;
    if (event.type === "session.status" && event.status === "busy") {
      clearTimeout(this.#starting.get(sessionID));
      this.#starting.delete(sessionID);
      return;
    }
    // After the bridge's other observers have read the run's end (lib/bridge/bridge.ts asks this one first).
    if ((event.type === "session.idle" || event.status === "idle") && this.#queue.has(sessionID))
      queueMicrotask(() => {
        if (!this.#starting.has(sessionID)) this.#release(sessionID);
      });
  }

  // ── the phone's side ──

  /** `/queue` as a reply to a session's message, or in a session's topic: that session's queue. */
  claimText(intent: ActingText): Claim | undefined {
    if (!QUEUE_COMMAND.test(intent.text.trim()) || intent.from.chatId === undefined || intent.replyTo === undefined) return undefined;
    const replyTo = { chatId: intent.from.chatId, messageId: intent.replyTo };
    if (this.#deps.registry.inputFor(replyTo)) return undefined; // an awaited answer stays one
    const owner = this.#deps.registry.ownerOf(replyTo) ?? this.#topicOwner(intent.threadId);
    if (!owner) return undefined;
    return () => this.#list(new Set([this.#deps.registry.sessions.rootOf(owner.sessionID)]), { owner, replyTo: intent.messageId });
  }

  /** `/queue` in a session's topic (that session's), or alone (every session's, when this process holds any). */
  claimCommand(intent: ActingCommand): Claim | undefined {
    if (intent.name !== "queue") return undefined;
    const owner = this.#topicOwner(intent.threadId);
    if (owner) return () => this.#list(new Set([this.#deps.registry.sessions.rootOf(owner.sessionID)]), { owner, replyTo: intent.messageId });
    if (this.#queue.list().length === 0) return undefined;
    return () => this.#list(undefined, { replyTo: intent.messageId, threadId: intent.threadId });
  }

  /** `/queue` no process claimed: nothing waits anywhere. */
  unclaimed(intent: ActingCommand): Promise<void> | undefined {
    if (intent.name !== "queue") return undefined;
    return this.#list(new Set(), { replyTo: intent.messageId, threadId: intent.threadId });
  }

  claimTap(intent: ActingTap): Claim | undefined {
    const data = decodeCallback(intent.data);
    if (!data || !isActionOn(data.action, "queue")) return undefined;
    const entry = this.#queue.get(data.key);
    if (!entry) return undefined;
    return () =>
      this.#tap(intent, data as CallbackData<QueueAction>, entry).catch((error) => this.#deps.log.error({ err: errorText(error) }, "a queue tap failed"));
  }

  /** Whether a tap (anyone's) is on a message this process holds: it answers a stranger's. */
  owns(data: CallbackData): boolean {
    return isActionOn(data.action, "queue") && this.#queue.get(data.key) !== undefined;
  }

  /** A tap on a message no process holds any more (sent, removed, or a restart lost it). */
  unclaimedTap(intent: ActingTap): Promise<void> | undefined {
    const data = decodeCallback(intent.data);
    if (!data || !isActionOn(data.action, "queue")) return undefined;
    return this.#deps.chat.answerCallback(intent.id, this.#deps.t.queue.stale);
  }

  #topicOwner(threadId: number | undefined): MessageOwner | undefined {
    return threadId === undefined ? undefined : this.#deps.topics.ownerOf(threadId);
  }

  async #tap(intent: ActingTap, data: CallbackData<QueueAction>, entry: Queued<Held>): Promise<void> {
    const { t, chat, posts } = this.#deps;
    const tapped = intent.messageId !== undefined && intent.from.chatId !== undefined ? { chatId: intent.from.chatId, messageId: intent.messageId } : undefined;
    const list = tapped ? this.#lists.get(idOf(tapped)) : undefined;
    switch (data.action) {
      case "queueRemove": {
        this.#queue.remove(entry.key);
        this.#deps.log.info({ sessionID: entry.sessionID }, "a held message removed from the phone: never sent");
        await chat.answerCallback(intent.id, t.queue.removing);
        await this.#showOutcome(entry, "removed");
        if (tapped && list) await posts.edit(tapped, this.#render(list.sessions));
        return;
      }
      case "queueSendNow":
        await chat.answerCallback(intent.id, t.queue.tapConfirm);
        if (tapped) await posts.edit(tapped, renderSendNowConfirm(entry.key, entry.item.text, t));
        return;
      case "queueBack":
        await chat.answerCallback(intent.id);
        if (!tapped) return;
        await posts.edit(tapped, list ? this.#render(list.sessions) : renderQueuedNotice(entry.key, this.#queue.placeOf(entry.key), t));
        return;
      case "queueConfirm":
        await chat.answerCallback(intent.id, t.queue.stopping);
        return this.#sendNow(entry, tapped, list?.sessions);
    }
  }

  /** Send now: first in its session's line, and the run aborted; its end sends it (at once if it already ended). */
  async #sendNow(entry: Queued<Held>, tapped: MessageRef | undefined, listed: ReadonlySet<string> | undefined): Promise<void> {
    const { activity, links, log, t, posts } = this.#deps;
    this.#queue.promote(entry.key);
    const root = entry.sessionID;
    if (!activity.isBusy(root)) {
      if (!this.#starting.has(root)) this.#release(root);
      return;
    }
    const link = links.linkFor(entry.item.owner.directory);
    // No "Done" for the run stopped, as Stop does.
    const undo = activity.markStopped(root);
    const outcome = link ? await link.opencode.abortSession(root) : ({ ok: false, gone: false, error: t.talk.notRunning } as const);
    log.info({ sessionID: root, outcome }, "run stopped from the phone to send a held message now");
    if (outcome.ok) {
      await this.#deps.prompts.closeRun(root);
      // On a list, the list again (the message first in its line); on its notice, what happens now.
      const onList = tapped !== undefined && this.#lists.has(idOf(tapped));
      if (tapped && this.#queue.get(entry.key)) await posts.edit(tapped, onList ? this.#render(listed) : renderQueuedOutcome("sendingNow", entry.item.text, t));
      return;
    }
    undo();
    const why = escapeWithin(reveal(outcome.gone ? t.talk.sessionGone : outcome.error, t), WHY_LIMIT);
    const shown =
      listed !== undefined || (tapped && this.#lists.has(idOf(tapped)))
        ? this.#render(listed)
        : renderQueuedNotice(entry.key, this.#queue.placeOf(entry.key), t);
    if (tapped) await posts.edit(tapped, { text: joinHtml([t.queue.stopFailed(why), shown.text], "\n\n"), keyboard: shown.keyboard });
  }

  // ── holding and sending on ──

  async #postNotice(entry: Queued<Held>, place: number): Promise<void> {
    const { owner, userMessage } = entry.item;
    const where = {
      owner: { sessionID: entry.sessionID, directory: owner.directory },
      ...(userMessage.outsideTopic ? {} : { replyTo: userMessage.messageId }),
    };
    const sent = await this.#deps.posts.post(renderQueuedNotice(entry.key, place, this.#deps.t), where);
    if (sent) entry.item.notice = sent;
    entry.item.posting = undefined;
  }

  /** The run ended: the session's first message is sent; the next waits for that run's end. */
  #release(sessionID: string): void {
    const entry = this.#queue.next(sessionID);
    if (!entry) return;
    const timer = setTimeout(() => {
      this.#starting.delete(sessionID);
      if (!this.#deps.activity.isBusy(sessionID)) this.#release(sessionID);
    }, START_WAIT_MS);
    timer.unref?.();
    this.#starting.set(sessionID, timer);
    void this.#sendOn(entry);
  }

  async #sendOn(entry: Queued<Held>): Promise<void> {
    const { owner, userMessage, text, byVoice } = entry.item;
    this.#deps.log.info({ sessionID: entry.sessionID, left: this.#queue.list(new Set([entry.sessionID])).length }, "a held message sent on: the run ended");
    await this.#showOutcome(entry, "sent");
    await this.#deps.talk
      .send(owner, userMessage, text, byVoice)
      .catch((error) => this.#deps.log.warn({ err: errorText(error) }, "could not send a held message"));
  }

  async #showOutcome(entry: Queued<Held>, outcome: "removed" | "sent"): Promise<void> {
    if (entry.item.posting) await entry.item.posting;
    if (entry.item.notice) await this.#deps.posts.edit(entry.item.notice, renderQueuedOutcome(outcome, entry.item.text, this.#deps.t));
  }

  // ── /queue's list ──

  async #list(sessions: ReadonlySet<string> | undefined, where: { owner?: MessageOwner; replyTo: number; threadId?: number | undefined }): Promise<void> {
    const sent = await this.#deps.posts.post(this.#render(sessions), where);
    if (!sent) return;
    this.#lists.set(idOf(sent), { sessions });
    if (this.#lists.size > LIST_LIMIT) this.#lists.delete(this.#lists.keys().next().value!);
  }

  #render(sessions: ReadonlySet<string> | undefined) {
    const { registry, t, now } = this.#deps;
    const views = this.#queue.list(sessions).map((entry): QueuedView => {
      const title = registry.sessions.title(entry.sessionID);
      const who = entry.item.userMessage.sender;
      return {
        key: entry.key,
        text: entry.item.text,
        at: entry.at,
        project: projectName(entry.item.owner.directory),
        ...(title ? { sessionTitle: title } : {}),
        ...(who !== undefined ? { who } : {}),
      };
    });
    return renderQueueList(views, now(), t);
  }
}

function idOf(message: MessageRef): string {
  return `${message.chatId}:${message.messageId}`;
}
