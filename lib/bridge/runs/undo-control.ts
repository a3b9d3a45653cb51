// Undo from the phone (docs/undo.md): ⏪ Undo on the Done notice of a run that changed files, and
// /undo in reply to a session's message, lead to a red confirmation naming the files; its tap
// reverts the session to before the run through OpenCode's own revert (the TUI's /undo), and
// ↪ Redo puts the run back until the session's next prompt. Refused, with files untouched, while
// the session works, when a newer run exists, when OpenCode refuses, and without git. Rendering is
// in lib/telegram/render/render-undo.ts; which run a key names in lib/registry/undo-targets.ts.
import type { Strings } from "../../i18n/catalog.ts";
import type { Logger } from "../../system/log.ts";
import type { ActivityTracker } from "../../notices/activity.ts";
import type { MessageOwner, Registry } from "../../registry/registry.ts";
import type { RunChanges } from "../../registry/run-changes.ts";
import { UndoTargets, type UndoMessage, type UndoTarget } from "../../registry/undo-targets.ts";
import type { HermesEvent } from "../../hermes-events.ts";
import type { TelegramApi } from "../../telegram/wire/api.ts";
import { isActionOn, type CallbackData, type UndoAction } from "../../telegram/codec.ts";
import { Priority, type Outbox } from "../../telegram/wire/outbox.ts";
import { projectName, type PromptContext } from "../../telegram/render/render-context.ts";
import { renderUndo, undoButton, type UndoView } from "../../telegram/render/render-undo.ts";
import { escapeHtml } from "../../text/html.ts";
import type { InlineButton, RenderedMessage } from "../../telegram/wire/rendered-message.ts";
import { SessionPosts } from "../core/session-posts.ts";
import { editMessageIn } from "../core/chat.ts";
import type { Tap } from "../core/desk.ts";
import type { InstanceLinks } from "../core/instance-links.ts";
import type { SessionTopics } from "../core/topics.ts";

export interface UndoDeps {
  telegram: TelegramApi;
  outbox: Outbox;
  registry: Registry;
  activity: ActivityTracker;
  /** Each session's current run and what it changed (RunNotices writes it). */
  changes: Pick<RunChanges, "firstMessage" | "of">;
  topics: SessionTopics;
  log: Logger;
  t: Strings;
  /** Undefined: no chat configured yet (nothing is posted). */
  chatId: number | undefined;
  links: Pick<InstanceLinks, "linkFor">;
}

/** `/undo` (or `/undo@bot`), sent as a reply: a reply starting with "/" arrives as text. */
const UNDO_COMMAND = /^\/undo(?:@[A-Za-z0-9_]+)?\s*$/i;

export function isUndoCommand(text: string): boolean {
  return UNDO_COMMAND.test(text.trim());
}

export class UndoControl {
  readonly #deps: UndoDeps;
  readonly #posts: SessionPosts;
  readonly #targets = new UndoTargets();

  constructor(deps: UndoDeps) {
    this.#posts = new SessionPosts(deps, "an Undo message");
    this.#deps = deps;
  }

  /** The ⏪ Undo button for the Done notice of the session's last run, if it changed files. */
  buttonFor(owner: MessageOwner): InlineButton | undefined {
    const target = this.#currentTarget(owner);
    return target ? undoButton(target.key, this.#deps.t) : undefined;
  }

  /** Undo's buttons, and only when the key is this process' (several processes share a bot). */
  owns(data: CallbackData): data is CallbackData<UndoAction> {
    return isActionOn(data.action, "run") && this.#targets.byKey(data.key) !== undefined;
  }

  observe(event: HermesEvent): void {
    if (event.type === "session.deleted") this.#targets.forget(event.sessionID);
    if (event.type !== "message.role" || event.role !== "user") return;
    // The session's next prompt makes an undo final (OpenCode drops the undone messages): Redo goes.
    for (const target of this.#targets.undoneIn(event.sessionID)) {
      if (this.#deps.changes.firstMessage(event.sessionID) === target.messageID) continue;
      target.state = "final";
      if (target.message) void this.#edit(target.message, this.#render({ kind: "final", restored: target.restored ?? 0 }, target), Priority.Edit);
    }
  }

  /** /undo in reply to a session's message: the confirmation for its last run, or why there is none. */
  async offer(owner: MessageOwner, replyTo: number): Promise<void> {
    // A working session's run is not over (its changes are not all known): busy before anything else.
    if (this.#deps.activity.isBusy(owner.sessionID))
      return void (await this.#post(owner, { text: escapeHtml(`⚠️ ${this.#deps.t.undo.busy}`), keyboard: [] }, replyTo));
    const target = this.#currentTarget(owner);
    if (!target) return void (await this.#post(owner, { text: escapeHtml(this.#deps.t.undo.nothing), keyboard: [] }, replyTo));
    const refusal = this.#refusal(target, "undo");
    if (refusal) return void (await this.#post(owner, { text: escapeHtml(`⚠️ ${refusal(this.#deps.t)}`), keyboard: [] }, replyTo));
    await this.#confirm(target, replyTo);
  }

  /** A tap on Undo (asks for confirmation), Confirm undo (reverts) or Redo (puts back). The gate checked who tapped. */
  tap(data: CallbackData<UndoAction>, message: UndoMessage | undefined): Tap {
    const target = this.#targets.byKey(data.key)!;
    if (target.state === "working") return { ok: false, note: (t) => (data.action === "redo" ? t.undo.redoing : t.undo.undoing) };
    if (target.state === "final" || (data.action === "redo" && target.state !== "undone")) return { ok: false, note: (t) => t.undo.redoGone, alert: true };
    if (data.action !== "redo" && target.state === "undone") return { ok: false, note: (t) => t.undo.alreadyUndone, alert: true };
    const refusal = this.#refusal(target, data.action);
    if (refusal) return { ok: false, note: refusal, alert: true };
    switch (data.action) {
      case "undo": {
        // On Undo's own message (after a Redo) the button turns into the confirmation; on the Done notice, it comes as a reply.
        const own = message !== undefined && target.message?.messageId === message.messageId && target.message.chatId === message.chatId;
        return {
          ok: true,
          note: (t) => t.undo.tapConfirm,
          next: () =>
            own
              ? this.#edit(message, this.#render({ kind: "confirm", files: target.files }, target), Priority.Answer)
              : this.#confirm(target, message?.messageId),
        };
      }
      case "undoConfirm":
        target.state = "working";
        return { ok: true, note: (t) => t.undo.undoing, next: () => this.#undo(target, message) };
      case "redo":
        target.state = "working";
        return { ok: true, note: (t) => t.undo.redoing, next: () => this.#redo(target, message) };
    }
  }

  /** The target of the session's current run, if it changed files. */
  #currentTarget(owner: MessageOwner): UndoTarget | undefined {
    const { changes } = this.#deps;
    const messageID = changes.firstMessage(owner.sessionID);
    const files = changes.of(owner.sessionID);
    if (!messageID || files.length === 0) return undefined;
    return this.#targets.targetFor(owner.sessionID, owner.directory, messageID, files);
  }

  /** Why the run cannot be undone (or redone) now; nothing is asked of OpenCode then. */
  #refusal(target: UndoTarget, action: UndoAction): ((t: Strings) => string) | undefined {
    const { activity, changes, links } = this.#deps;
    if (!links.linkFor(target.directory)) return (t) => t.talk.notRunning;
    if (activity.isBusy(target.sessionID)) return (t) => t.undo.busy;
    if (changes.firstMessage(target.sessionID) !== target.messageID) return (t) => (action === "redo" ? t.undo.redoGone : t.undo.newer);
    return undefined;
  }

  async #confirm(target: UndoTarget, replyTo: number | undefined): Promise<void> {
    const sent = await this.#post(target, this.#render({ kind: "confirm", files: target.files }, target), replyTo);
    if (sent) target.message = sent;
  }

  async #undo(target: UndoTarget, tapped: UndoMessage | undefined): Promise<void> {
    const { log, t } = this.#deps;
    const message = tapped ?? target.message;
    const opencode = this.#deps.links.linkFor(target.directory)?.opencode;
    const outcome = opencode ? await opencode.revertRun(target.sessionID, target.messageID) : ({ ok: false, gone: false, error: t.talk.notRunning } as const);
    log.info(
      { sessionID: target.sessionID, outcome: outcome.ok ? { restored: outcome.files.length, snapshot: outcome.snapshot } : outcome },
      "run undone from the phone",
    );
    let view: UndoView;
    if (outcome.ok && outcome.snapshot && outcome.files.length > 0) {
      target.state = "undone";
      target.restored = outcome.files.length;
      view = { kind: "undone", restored: outcome.files.length };
    } else if (outcome.ok) {
      // OpenCode marked the session reverted but restored nothing: no snapshot (no git), or no record
      // of the run's changes (1.1.53 races its own snapshots, docs/undo.md). Take the mark back.
      const cleared = await opencode!.unrevertRun(target.sessionID);
      log.info({ sessionID: target.sessionID, cleared }, "a revert that restored nothing taken back");
      target.state = "offered";
      view = outcome.snapshot ? { kind: "failed", error: t.undo.noneRestored, retry: "undoConfirm" } : { kind: "noGit" };
    } else {
      target.state = "offered";
      view = { kind: "failed", error: outcome.gone ? t.talk.sessionGone : outcome.error, retry: "undoConfirm" };
    }
    if (message) await this.#edit(message, this.#render(view, target), Priority.Answer);
  }

  async #redo(target: UndoTarget, tapped: UndoMessage | undefined): Promise<void> {
    const { log, t } = this.#deps;
    const message = tapped ?? target.message;
    const opencode = this.#deps.links.linkFor(target.directory)?.opencode;
    const outcome = opencode ? await opencode.unrevertRun(target.sessionID) : ({ ok: false, gone: false, error: t.talk.notRunning } as const);
    log.info({ sessionID: target.sessionID, outcome }, "run redone from the phone");
    target.state = outcome.ok ? "offered" : "undone";
    const view: UndoView = outcome.ok ? { kind: "redone" } : { kind: "failed", error: outcome.gone ? t.talk.sessionGone : outcome.error, retry: "redo" };
    if (message) await this.#edit(message, this.#render(view, target), Priority.Answer);
  }

  #render(view: UndoView, target: UndoTarget): RenderedMessage {
    const title = this.#deps.registry.sessions.title(target.sessionID);
    const context: PromptContext & { t: Strings } = { project: projectName(target.directory), t: this.#deps.t, ...(title ? { sessionTitle: title } : {}) };
    return renderUndo(view, target.key, context);
  }

  async #post(owner: MessageOwner, rendered: RenderedMessage, replyTo: number | undefined): Promise<UndoMessage | undefined> {
    // A reply to it reaches the session, as with any Hermes message.
    const sent = await this.#posts.post(rendered, { owner, replyTo });
    return sent && { chatId: sent.chatId, messageId: sent.messageId };
  }

  /** `priority`: `Priority.Answer` when a person's tap asked for it, `Priority.Edit` otherwise. */
  async #edit(message: UndoMessage, rendered: RenderedMessage, priority: Priority): Promise<void> {
    await editMessageIn(this.#deps, message, rendered, priority, "could not update an Undo message");
  }
}
