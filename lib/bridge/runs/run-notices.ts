// How runs are reported and continued from the phone: "Done" / "Failed" / retrying notices
// (the noise policy lives in notices/activity.ts), and a user's text sent on to a session. The
// Done notice of a run that changed files carries ⏪ Undo (undo-control.ts, which this creates).
import type { Strings } from "../../i18n/catalog.ts";
import type { Logger } from "../../log.ts";
import type { ActivityTracker, Notice } from "../../notices/activity.ts";
import { RunChanges } from "../../registry/run-changes.ts";
import type { MessageOwner, Registry } from "../../registry/registry.ts";
import type { FileChange, HermesEvent } from "../../hermes-events.ts";
import type { TelegramApi } from "../../telegram/wire/api.ts";
import { Priority, type Outbox } from "../../telegram/wire/outbox.ts";
import { errorText } from "../../error-text.ts";
import { projectName, type PromptContext } from "../../telegram/render/render-context.ts";
import { CHANGES_FILE, changesDiff, renderChanges } from "../../telegram/render/render-changes.ts";
import { LOST_MESSAGE_FILE, renderNotice, renderNotSent } from "../../telegram/render/render-notice.ts";
import { escapeHtml } from "../../telegram/text/html.ts";
import { loadMarkdown } from "../../telegram/text/markdown.ts";
import { postAnswerMessage } from "./answer-messages.ts";
import { inThread, type Chat } from "../core/chat.ts";
import type { InstanceLinks } from "../core/instance-links.ts";
import type { LiveProgress } from "./live-progress.ts";
import type { RunCosts } from "./run-costs.ts";
import type { StopControl } from "./stop-control.ts";
import { UndoControl } from "./undo-control.ts";
import { answerStream, type AnswerStream } from "./answer-stream.ts";
import type { SpokenAnswers } from "./spoken-answers.ts";
import { ForkControl } from "./fork-control.ts";
import { SessionPosts } from "./session-posts.ts";
import type { InlineButton } from "../../telegram/wire/rendered-message.ts";
import type { SessionTopics } from "../core/topics.ts";

export interface RunNoticeDeps {
  telegram: TelegramApi;
  outbox: Outbox;
  registry: Registry;
  topics: SessionTopics;
  log: Logger;
  t: Strings;
  /** Undefined: no chat configured yet (nothing is posted). */
  chatId: number | undefined;
  now: () => number;
  /** The noise policy's view of every session's runs (shared with Stop and /status). */
  activity: ActivityTracker;
  links: Pick<InstanceLinks, "linkFor">;
  chat: Pick<Chat, "reply">;
  /** Says the phone's text started (or was queued behind) a run, with a way to stop it. */
  stops: Pick<StopControl, "announce">;
  /** With live progress on, a run the phone started gets its progress message instead of the Running notice. */
  progress?: Pick<LiveProgress, "startFromPhone" | "showNow" | "showAnswer">;
  /** What each run used: fed the same events, first; the Done notice shows it. */
  costs?: Pick<RunCosts, "observe" | "take">;
  /** The answer spoken after its Done notice, for a run a voice note asked for (spoken-answers.ts). */
  spoken?: Pick<SpokenAnswers, "heardVoice" | "afterDone">;
  /** HERMES_STREAM: the answer as it is written (answer-stream.ts); undefined: on in a private chat only. */
  stream?: boolean | undefined;
  /** The Done notice's git buttons (Commit, Push, Remove worktree: bridge/git/). */
  git?: DoneButtons;
  /** Approvals (issue 42): they see the run's events (the budget reads its cost), and count for the Done notice the requests session rules answered. */
  approvals?: { observe(directory: string, event: HermesEvent): void; takeAnswered(sessionID: string): number };
  /** A run held by a usage limit holds what the phone sends it until it resumes (bridge/walkaway/). */
  held?: { hold(owner: MessageOwner, userMessage: UserMessage, text: string, byVoice: boolean): boolean };
}

export interface DoneButtons {
  buttonsFor(owner: MessageOwner, changes: readonly FileChange[], answer: string | undefined): Promise<InlineButton[]>;
}

/** The user's own message that carried the text (for the 👍 and for replies). */
export interface UserMessage {
  chatId: number;
  messageId: number;
  threadId?: number;
  /** In the main chat while the session posts in its own topic (topics on, /new): the Running notice does not reply to it. */
  outsideTopic?: true;
}

export class RunNotices {
  readonly activity: ActivityTracker;
  readonly #deps: RunNoticeDeps;
  readonly #graceMs: number;
  readonly #pendingDone = new Map<string, ReturnType<typeof setTimeout>>();
  /** What each session's current run changed: written here only (Undo reads it). */
  readonly #changes = new RunChanges();
  /** ⏪ Undo on the Done notice of a run that changed files, /undo, and Redo. */
  readonly undos: UndoControl;
  /** The answer as it is written, before its Done notice. */
  readonly #stream: AnswerStream | undefined;
  /** ⑂ Fork on the Done notice, /fork and Fork here (issue 43). */
  readonly forks: ForkControl;

  constructor(deps: RunNoticeDeps, doneGraceMs: number) {
    this.#deps = deps;
    this.undos = new UndoControl({ ...deps, changes: this.#changes });
    this.#stream = answerStream(deps, deps.stream);
    this.forks = new ForkControl(new SessionPosts(deps), this.#changes);
    this.activity = deps.activity;
    this.#graceMs = doneGraceMs;
  }

  /** Feeds a session event to the noise policy and sends the notice it calls for. */
  observe(directory: string, event: HermesEvent): void {
    this.#stream?.observe(event);
    if (event.type === "message.delta") return;
    this.#deps.costs?.observe(directory, event);
    this.#deps.approvals?.observe(directory, event);
    if (event.type === "session.error" && event.name === "MessageAbortedError") this.#cancelDone(event.sessionID);
    if (event.type === "message.role" && event.role === "user") this.#changes.note(event.sessionID, event.messageID, event.changes);
    if (event.type === "session.idle") this.#changes.end(event.sessionID);
    if (event.type === "session.deleted") this.#changes.forget(event.sessionID);
    // After the changes: a new run (noted above) makes an undone run's undo final.
    this.undos.observe(event);
    const { registry, now } = this.#deps;
    const notice = this.activity.observe(event, now(), (sessionID) => !registry.sessions.get(sessionID)?.parentID);
    if (notice?.kind === "done") this.#scheduleDone(directory, notice);
    else if (notice) void this.#send(directory, notice);
  }

  /** Sends typed text (or a voice note's words: `byVoice`) to a session as its next instruction, and says so quietly (or says why not). */
  async talkBack(owner: MessageOwner, userMessage: UserMessage, text: string, byVoice = false): Promise<void> {
    const { t, log, outbox, telegram } = this.#deps;
    if (this.#deps.held?.hold(owner, userMessage, text, byVoice)) return;
    const link = this.#deps.links.linkFor(owner.directory);
    const busy = this.activity.isBusy(owner.sessionID);
    const outcome = link
      ? await link.opencode.prompt(owner.sessionID, [{ type: "text", text }])
      : ({ ok: false, gone: false, error: t.talk.notRunning } as const);
    log.info({ sessionID: owner.sessionID, outcome, busy }, "message from the phone sent to a session");
    if (outcome.ok && byVoice) this.#deps.spoken?.heardVoice(owner.sessionID);
    if (outcome.ok) return this.acknowledge(owner, userMessage, busy);
    // The instruction is lost unless the user gets it back: quoted, and in full as a file if long.
    const why = outcome.gone ? t.talk.sessionGone : outcome.error;
    const notice = renderNotSent(why, text, t);
    await this.#deps.chat.reply(notice.html, userMessage.messageId, userMessage.threadId);
    if (!notice.cut) return;
    const { chatId } = userMessage;
    const options = {
      replyTo: userMessage.messageId,
      caption: escapeHtml(t.talk.fileCaption),
      ...(userMessage.threadId !== undefined ? { threadId: userMessage.threadId } : {}),
    };
    await outbox
      .send(chatId, () => () => telegram.sendDocument(chatId, LOST_MESSAGE_FILE, text, options), Priority.Answer)
      .catch((error) => log.warn({ err: errorText(error) }, "could not send back a message that was not delivered"));
  }

  /** A voice note answered one of the session's prompts: the run it continues is answered in voice too (spoken-answers.ts). */
  heardVoice(sessionID: string): void {
    this.#deps.spoken?.heardVoice(this.#deps.registry.sessions.rootOf(sessionID));
  }

  /**
   * A message from the phone reached the session: 👍 on it, and the run's progress message (with
   * Stop), or the Running notice with progress off; "queued" if the session was busy.
   */
  async acknowledge(owner: MessageOwner, userMessage: UserMessage, wasBusy: boolean): Promise<void> {
    const { outbox, telegram, progress } = this.#deps;
    this.activity.markFromPhone(owner.sessionID);
    void outbox.chore(userMessage.chatId, () => telegram.react(userMessage.chatId, userMessage.messageId, "👍")).catch(() => undefined);
    // A message outside the session's topic (/new opening a new topic) is not replied to there.
    const replyTo = userMessage.outsideTopic ? undefined : userMessage.messageId;
    if (progress && !wasBusy) return progress.startFromPhone(owner, replyTo, userMessage.threadId);
    await this.#deps.stops.announce(owner, replyTo, wasBusy, userMessage.threadId);
    // Queued behind a run: that run now concerns the phone too.
    if (progress) await progress.showNow(owner.sessionID);
  }

  stop(): void {
    this.#stream?.stop();
    for (const timer of this.#pendingDone.values()) clearTimeout(timer);
    this.#pendingDone.clear();
  }

  /** OpenCode 1.1.53 reports an abort (Esc) just after the idle that ends the run: wait a moment. */
  #scheduleDone(directory: string, notice: Notice): void {
    this.#cancelDone(notice.sessionID);
    const timer = setTimeout(() => {
      this.#pendingDone.delete(notice.sessionID);
      void this.#send(directory, notice);
    }, this.#graceMs);
    timer.unref?.();
    this.#pendingDone.set(notice.sessionID, timer);
  }

  #cancelDone(sessionID: string): void {
    clearTimeout(this.#pendingDone.get(sessionID));
    this.#pendingDone.delete(sessionID);
  }

  /** What the run changed: from its user messages' events (1.x), or asked of OpenCode (2.x, whose events don't say). */
  async #changesOf(sessionID: string, directory: string): Promise<FileChange[]> {
    const known = this.#changes.of(sessionID);
    const opencode = this.#deps.links.linkFor(directory)?.opencode;
    const first = this.#changes.firstMessage(sessionID);
    if (known.length > 0 || !opencode?.runChanges || !first) return known;
    try {
      const last = this.#changes.lastMessage(sessionID);
      this.#changes.note(sessionID, first, await opencode.runChanges(sessionID, first, last !== first ? last : undefined));
    } catch (error) {
      this.#deps.log.warn({ err: errorText(error), sessionID }, "could not read what the run changed");
    }
    return this.#changes.of(sessionID);
  }

  /** The run's whole diff, as a file replying to its Done notice (a reply to it reaches the session too). */
  async #sendDiff(diff: string, noticeId: number, threadId: number | undefined, owner: MessageOwner): Promise<void> {
    const { outbox, telegram, chatId, t, log, registry } = this.#deps;
    if (chatId === undefined) return;
    const options = { caption: escapeHtml(t.changes.fileCaption), replyTo: noticeId, ...inThread(threadId) };
    try {
      const sent = await outbox.send(chatId, () => () => telegram.sendDocument(chatId, CHANGES_FILE, diff, options), Priority.Edit);
      if (sent) registry.noteMessage({ chatId, messageId: sent.messageId }, owner);
    } catch (error) {
      log.warn({ err: errorText(error) }, "could not send the run's diff");
    }
  }

  async #send(directory: string, notice: Notice): Promise<void> {
    const { registry, topics, chatId, t, log } = this.#deps;
    if (chatId === undefined) return;
    const session = registry.sessions.get(notice.sessionID);
    const context: PromptContext = { project: projectName(directory), t };
    if (session?.title) context.sessionTitle = session.title;
    if (notice.kind === "done" && notice.lastText) context.markdown = await loadMarkdown();
    const changes = notice.kind === "done" ? await this.#changesOf(notice.sessionID, directory) : [];
    const used = notice.kind === "done" ? this.#deps.costs?.take(notice.sessionID) : undefined;
    const autoAllowed = notice.kind === "done" ? (this.#deps.approvals?.takeAnswered(notice.sessionID) ?? 0) : 0;
    const spent = autoAllowed > 0 ? { tokens: used?.tokens ?? 0, cost: used?.cost ?? 0, autoAllowed } : used;
    const owner = { sessionID: notice.sessionID, directory };
    const undo = changes.length > 0 ? this.undos.buttonFor(owner) : undefined;
    const fork = notice.kind === "done" ? this.forks.buttonFor(owner) : undefined;
    const git = notice.kind === "done" ? await this.#deps.git?.buttonsFor(owner, changes, notice.lastText).catch(() => []) : undefined;
    const buttons = [undo, fork].filter((button) => button !== undefined);
    const rendered = {
      ...renderNotice(notice, context, changes.length > 0 ? renderChanges(changes, t) : undefined, spent),
      // Git's buttons (Commit, Push, Remove worktree) on a row of their own under Undo and Fork.
      ...(buttons.length > 0 || git?.length ? { keyboard: [buttons, git ?? []].filter((row) => row.length > 0) } : {}),
    };
    try {
      const threadId = await topics.threadOf(notice.sessionID, directory);
      // A reply to the notice (or to the whole answer's file) reaches the session.
      const sent = await postAnswerMessage(
        this.#deps,
        { chatId, threadId, owner, priority: Priority.Edit },
        rendered,
        notice.kind === "done" ? (notice.lastText ?? "") : "",
      );
      log.info({ kind: notice.kind, sessionID: notice.sessionID, changedFiles: changes.length, shortened: rendered.shortened }, "notice sent");
      if (sent && fork) this.forks.noteNotice({ chatId, messageId: sent.messageId }, fork);
      const diff = changesDiff(changes);
      if (sent && diff) await this.#sendDiff(diff, sent.messageId, threadId, owner);
      if (sent && notice.kind === "done") await this.#deps.spoken?.afterDone(owner, notice.lastText ?? "", sent.messageId, threadId);
    } catch (error) {
      log.warn({ err: errorText(error), kind: notice.kind }, "could not send a notice");
    }
  }
}
