// Stop from the phone: a Stop button on a running session's messages and /stop lead to a red
// confirmation, whose tap aborts the session's run through OpenCode's API (POST /session/:id/abort,
// what Esc does in the terminal). Rendering is in lib/telegram/render/render-stop.ts; this file sends and edits.
import type { Strings } from "../../i18n/catalog.ts";
import type { Logger } from "../../system/log.ts";
import type { ActivityTracker } from "../../notices/activity.ts";
import type { MessageOwner, Registry } from "../../registry/registry.ts";
import { StopTargets, type StopMessage } from "../../registry/stop-targets.ts";
import type { HermesEvent } from "../../hermes-events.ts";
import type { TelegramApi } from "../../telegram/wire/api.ts";
import { isActionOn, type CallbackData, type StopAction } from "../../telegram/codec.ts";
import { escapeHtml, escapeWithin } from "../../text/html.ts";
import { Priority, type Outbox } from "../../telegram/wire/outbox.ts";
import { errorText } from "../../util/error-text.ts";
import { projectName, type PromptContext } from "../../telegram/render/render-context.ts";
import { renderStop, renderStopFailed, renderStopPicker, stopButton, type StopOutcome } from "../../telegram/render/render-stop.ts";
import type { InlineButton, RenderedMessage } from "../../telegram/wire/rendered-message.ts";
import { reveal } from "../../text/reveal.ts";
import { editMessageIn, inThread } from "../core/chat.ts";
import type { Tap } from "../core/desk.ts";
import type { InstanceLinks } from "../core/instance-links.ts";
import type { PromptLife } from "../prompts/prompt-life.ts";
import type { SessionTopics } from "../core/topics.ts";

export interface StopDeps {
  telegram: TelegramApi;
  outbox: Outbox;
  registry: Registry;
  activity: ActivityTracker;
  topics: SessionTopics;
  log: Logger;
  t: Strings;
  /** Undefined: no chat configured yet (nothing is posted). */
  chatId: number | undefined;
  links: Pick<InstanceLinks, "linkFor">;
  /** After a stop: the run's prompts that OpenCode leaves pending are dismissed (questions) or rejected (permissions). */
  prompts: Pick<PromptLife, "closeRun">;
}

/** Sessions whose directory is remembered for /stop: the ones heard of last (a busy one is heard of at its start). */
const DIRECTORIES_KEPT = 500;
/** Escaped length of OpenCode's error shown when a stop fails. */
const ERROR_LIMIT = 300;

export class StopControl {
  readonly #deps: StopDeps;
  readonly #targets = new StopTargets();
  /** Where each session lives (from its events), so /stop can reach it. */
  readonly #directories = new Map<string, string>();
  /** Messages Stop wrote itself (notices, confirmations, pickers): a tap on them edits them in place. */
  readonly #own = new Set<string>();
  /**
   * Stop's messages that show buttons, as last sent or edited: only these lose them when the run
   * ends (an edit that removes buttons a message no longer has is refused, and costs the chat's budget).
   */
  readonly #withButtons = new Set<string>();

  constructor(deps: StopDeps) {
    this.#deps = deps;
  }

  /** The Stop button for a prompt's message: it stops the run the prompt belongs to (a sub-agent's root). */
  buttonFor(sessionID: string, directory: string): InlineButton {
    return stopButton(this.#targets.keyFor(this.#deps.registry.sessions.rootOf(sessionID), directory), this.#deps.t);
  }

  observe(directory: string, event: HermesEvent): void {
    if (event.type === "session.deleted") {
      this.#directories.delete(event.sessionID);
      for (const message of this.#targets.takeMessages(event.sessionID)) {
        this.#own.delete(idOf(message));
        this.#withButtons.delete(idOf(message));
      }
      this.#targets.forget(event.sessionID);
      return;
    }
    if (event.type !== "session.status" && event.type !== "session.idle") return;
    this.#directories.delete(event.sessionID);
    this.#directories.set(event.sessionID, directory);
    if (this.#directories.size > DIRECTORIES_KEPT) this.#directories.delete(this.#directories.keys().next().value!);
    // The run ended: its Stop buttons go.
    if (event.type === "session.idle" || event.status === "idle")
      for (const message of this.#targets.takeMessages(event.sessionID)) this.#removeButton(message);
  }

  /** Stop's own buttons, and only when the key is this process' (several processes share a bot). */
  owns(data: CallbackData): data is CallbackData<StopAction> {
    return isActionOn(data.action, "session") && this.#targets.byKey(data.key) !== undefined;
  }

  /** A tap on Stop (asks for confirmation) or on Confirm stop (aborts the run). The caller checked who tapped. */
  tap(data: CallbackData<StopAction>, message: StopMessage | undefined): Tap {
    const target = this.#targets.byKey(data.key)!;
    const { t } = this.#deps;
    const own = message !== undefined && this.#own.has(idOf(message));
    if (!this.#deps.activity.isBusy(target.sessionID)) {
      return { ok: false, note: (t) => t.stop.notBusy, ...(own ? { next: () => this.#show(message, "notRunning", target.key, target) } : {}) };
    }
    switch (data.action) {
      case "stop": {
        // On Stop's own message the button turns into the confirmation; on a prompt, a confirmation comes as a reply.
        const next = own ? () => this.#show(message, "confirm", target.key, target) : () => this.#sendFor(target, "confirm", message?.messageId);
        return { ok: true, note: () => t.stop.tapConfirm, next };
      }
      case "halt":
        return { ok: true, note: (t) => t.stop.halting, next: () => this.#halt(target, message) };
    }
  }

  /** After the phone started (or queued) a run: a notice with Stop, which a reply also reaches the session through. */
  async announce(owner: MessageOwner, replyTo: number | undefined, queued: boolean, threadId?: number): Promise<void> {
    const root = this.#deps.registry.sessions.rootOf(owner.sessionID);
    const key = this.#targets.keyFor(root, owner.directory);
    const rendered = renderStop("running", key, this.#contextOf(root, owner.directory));
    if (queued) rendered.text = escapeHtml(this.#deps.t.talk.queued);
    await this.#send({ sessionID: root, directory: owner.directory }, rendered, replyTo, threadId);
  }

  /** /stop: the confirmation for the one busy session, a picker for several, nothing for none. */
  async offer(replyTo: number): Promise<void> {
    const busy = this.#deps.activity
      .summary()
      .filter(({ busy, sessionID }) => busy && this.#directories.has(sessionID) && this.#deps.registry.sessions.rootOf(sessionID) === sessionID)
      .map(({ sessionID }) => ({ sessionID, directory: this.#directories.get(sessionID)! }));
    if (busy.length === 1) return this.#sendFor(busy[0]!, "confirm", replyTo);
    if (busy.length === 0) return;
    const choices = busy.map(({ sessionID, directory }) => {
      const title = this.#deps.registry.sessions.title(sessionID);
      return { key: this.#targets.keyFor(sessionID, directory), project: projectName(directory), ...(title ? { title } : {}) };
    });
    const sent = await this.#post(renderStopPicker(choices, this.#deps.t), replyTo);
    if (sent) this.#own.add(idOf(sent));
  }

  async #halt(target: { key: string; sessionID: string; directory: string }, message: StopMessage | undefined): Promise<void> {
    const { activity, log } = this.#deps;
    const link = this.#deps.links.linkFor(target.directory);
    // No "Done" for a run the phone stopped, however OpenCode orders idle and abort.
    const undo = activity.markStopped(target.sessionID);
    if (message) void this.#show(message, "stopping", target.key, target);
    const outcome = link ? await link.opencode.abortSession(target.sessionID) : ({ ok: false, gone: false, error: this.#deps.t.talk.notRunning } as const);
    log.info({ sessionID: target.sessionID, outcome }, "run stopped from the phone");
    if (outcome.ok) {
      await this.#deps.prompts.closeRun(target.sessionID);
      return message ? this.#show(message, "stopped", target.key, target) : undefined;
    }
    undo();
    if (!message) return;
    const error = outcome.gone ? this.#deps.t.talk.sessionGone : outcome.error;
    const rendered = renderStopFailed(target.key, this.#contextOf(target.sessionID, target.directory), escapeWithin(reveal(error, this.#deps.t), ERROR_LIMIT));
    await this.#edit(message, rendered);
  }

  async #sendFor(target: { sessionID: string; directory: string }, outcome: StopOutcome, replyTo: number | undefined): Promise<void> {
    const key = this.#targets.keyFor(target.sessionID, target.directory);
    await this.#send(target, renderStop(outcome, key, this.#contextOf(target.sessionID, target.directory)), replyTo);
  }

  async #send(target: { sessionID: string; directory: string }, rendered: RenderedMessage, replyTo: number | undefined, threadId?: number): Promise<void> {
    const thread = threadId ?? (await this.#deps.topics.threadOf(target.sessionID, target.directory));
    const sent = await this.#post(rendered, replyTo, thread);
    if (!sent) return;
    this.#own.add(idOf(sent));
    this.#targets.noteMessage(target.sessionID, sent);
    // A reply to it reaches the session, as with any Hermes message.
    this.#deps.registry.noteMessage(sent, target);
  }

  async #post(rendered: RenderedMessage, replyTo: number | undefined, threadId?: number): Promise<StopMessage | undefined> {
    const { outbox, telegram, chatId, log } = this.#deps;
    if (chatId === undefined) return undefined;
    const options = { keyboard: rendered.keyboard, ...(replyTo !== undefined ? { replyTo } : {}), ...inThread(threadId) };
    const sent = await outbox
      .send(chatId, () => () => telegram.sendMessage(chatId, rendered.text, options), Priority.Answer)
      .catch((error) => {
        log.warn({ err: errorText(error) }, "could not send a Stop message");
        return undefined;
      });
    if (!sent) return undefined;
    const message = { chatId, messageId: sent.messageId };
    if (rendered.keyboard.length > 0) this.#withButtons.add(idOf(message));
    return message;
  }

  #show(message: StopMessage, outcome: StopOutcome, key: string, target: { sessionID: string; directory: string }): Promise<void> {
    const rendered = renderStop(outcome, key, this.#contextOf(target.sessionID, target.directory));
    if (rendered.keyboard.length > 0) {
      this.#own.add(idOf(message));
      this.#targets.noteMessage(target.sessionID, message);
    }
    return this.#edit(message, rendered);
  }

  async #edit(message: StopMessage, rendered: RenderedMessage): Promise<void> {
    if (rendered.keyboard.length > 0) this.#withButtons.add(idOf(message));
    else this.#withButtons.delete(idOf(message));
    await editMessageIn(this.#deps, message, rendered, Priority.Answer, "could not update a Stop message");
  }

  #removeButton(message: StopMessage): void {
    this.#own.delete(idOf(message));
    if (!this.#withButtons.delete(idOf(message))) return;
    const { outbox, telegram } = this.#deps;
    void outbox.chore(message.chatId, () => telegram.removeKeyboard(message.chatId, message.messageId)).catch(() => undefined);
  }

  #contextOf(sessionID: string, directory: string): PromptContext & { t: Strings } {
    const title = this.#deps.registry.sessions.title(sessionID);
    return { project: projectName(directory), t: this.#deps.t, ...(title ? { sessionTitle: title } : {}) };
  }
}

function idOf(message: StopMessage): string {
  return `${message.chatId}:${message.messageId}`;
}
