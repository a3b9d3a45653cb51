// How runs are reported on the phone: "Done" / "Failed" / retrying notices (the noise policy lives
// in the notices folder's lib/notices/activity.ts). The
// Done notice of a run that changed files carries ⏪ Undo (undo-control.ts, which this creates),
// and other capabilities' buttons through one seam (done-buttons.ts).
import type { Strings } from "../../i18n/catalog.ts";
import type { Logger } from "../../system/log.ts";
import type { ActivityTracker, Notice } from "../../notices/activity.ts";
import { RunChanges } from "../../registry/run-changes.ts";
import type { MessageOwner, Registry } from "../../registry/registry.ts";
import type { FileChange, HermesEvent } from "../../hermes-events.ts";
import type { TelegramApi } from "../../telegram/wire/api.ts";
import { Priority, type Outbox } from "../../telegram/wire/outbox.ts";
import { errorText } from "../../util/error-text.ts";
import { projectName, type PromptContext } from "../../telegram/render/render-context.ts";
import { CHANGES_FILE, changesDiff, renderChanges } from "../../telegram/render/render-changes.ts";
import { renderNotice } from "../../telegram/render/render-notice.ts";
import { escapeHtml } from "../../text/html.ts";
import { loadMarkdown } from "../../text/markdown.ts";
import { postAnswerMessage, richAnswerFor } from "./answer-messages.ts";
import { inThread } from "../core/chat.ts";
import type { InstanceLinks } from "../core/instance-links.ts";
import type { LiveProgress } from "./live-progress.ts";
import type { RunCosts } from "./run-costs.ts";
import { UndoControl } from "./undo-control.ts";
import { answerStream, type AnswerStream } from "./answer-stream.ts";
import type { SpokenAnswers } from "./spoken-answers.ts";
import type { DoneButtons } from "./done-buttons.ts";
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
  /** The answer as it is written shows on the run's progress message in a group (answer-stream.ts). */
  progress?: Pick<LiveProgress, "showAnswer">;
  /** What each run used: fed the same events, first; the Done notice shows it. */
  costs?: Pick<RunCosts, "observe" | "take">;
  /** The answer spoken after its Done notice, for a run a voice note asked for (spoken-answers.ts). */
  spoken?: Pick<SpokenAnswers, "afterDone">;
  /** HERMES_STREAM: the answer as it is written (answer-stream.ts); undefined: on in a private chat only. */
  stream?: boolean | undefined;
  /** Other capabilities' buttons on the Done notice (done-buttons.ts), in the order they show. */
  doneButtons?: readonly DoneButtons[];
  /** Approvals (issue 42): they see the run's events (the budget reads its cost), and count for the Done notice the requests session rules answered. */
  approvals?: { observe(directory: string, event: HermesEvent): void; takeAnswered(sessionID: string): number };
  /** HERMES_DESK_DELAY (issue 51): whether the session's Done notice goes silently (its run started at the desk, the person is there). */
  digest?: { quietDone(sessionID: string): boolean; filesChanged(sessionID: string, count: number): void };
}

export class RunNotices {
  readonly activity: ActivityTracker;
  readonly #deps: RunNoticeDeps;
  readonly #graceMs: number;
  readonly #pendingDone = new Map<string, ReturnType<typeof setTimeout>>();
  /** Runs ended without a Done notice: their files are counted for the digest after the grace. */
  readonly #pendingCounts = new Set<ReturnType<typeof setTimeout>>();
  /** What each session's current run changed: written here only (Undo reads it). */
  readonly #changes = new RunChanges();
  /** ⏪ Undo on the Done notice of a run that changed files, /undo, and Redo. */
  readonly undos: UndoControl;
  /** The answer as it is written, before its Done notice. */
  readonly #stream: AnswerStream | undefined;

  /** What each session's current run changed, to read: ⑂ Fork cuts through a run's last message. */
  get changes(): Pick<RunChanges, "lastMessage"> {
    return this.#changes;
  }

  constructor(deps: RunNoticeDeps, doneGraceMs: number) {
    this.#deps = deps;
    this.undos = new UndoControl({ ...deps, changes: this.#changes });
    this.#stream = answerStream(deps, deps.stream);
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
    // The digest counts every run's files; a Done notice counts them as it is sent.
    if (event.type === "session.idle" && notice?.kind !== "done" && this.#deps.digest) this.#countFilesLater(directory, event.sessionID);
  }

  /** After the grace (a run's summary comes just after its idle): the files the run changed, for the digest. */
  #countFilesLater(directory: string, sessionID: string): void {
    if (this.#deps.registry.sessions.get(sessionID)?.parentID) return;
    const timer = setTimeout(() => {
      this.#pendingCounts.delete(timer);
      void this.#changesOf(sessionID, directory).then((changes) => this.#deps.digest?.filesChanged(sessionID, changes.length));
    }, this.#graceMs);
    timer.unref?.();
    this.#pendingCounts.add(timer);
  }

  stop(): void {
    this.#stream?.stop();
    for (const timer of this.#pendingDone.values()) clearTimeout(timer);
    this.#pendingDone.clear();
    for (const timer of this.#pendingCounts) clearTimeout(timer);
    this.#pendingCounts.clear();
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
    if (notice.kind === "done") this.#deps.digest?.filesChanged(notice.sessionID, changes.length);
    const used = notice.kind === "done" ? this.#deps.costs?.take(notice.sessionID) : undefined;
    const autoAllowed = notice.kind === "done" ? (this.#deps.approvals?.takeAnswered(notice.sessionID) ?? 0) : 0;
    const spent = autoAllowed > 0 ? { tokens: used?.tokens ?? 0, cost: used?.cost ?? 0, autoAllowed } : used;
    const owner = { sessionID: notice.sessionID, directory };
    const undo = changes.length > 0 ? this.undos.buttonFor(owner) : undefined;
    const seams = notice.kind === "done" ? (this.#deps.doneButtons ?? []) : [];
    const answer = notice.kind === "done" ? notice.lastText : undefined;
    const offered = await Promise.all(seams.map((seam) => seam.buttonsFor(owner, changes, answer).catch(() => [])));
    const beside = [...(undo ? [undo] : []), ...seams.flatMap((seam, i) => (seam.row === "beside" ? offered[i]! : []))];
    const below = seams.flatMap((seam, i) => (seam.row === "below" ? offered[i]! : []));
    const keyboard = [beside, below].filter((row) => row.length > 0);
    const notified = renderNotice(notice, context, changes.length > 0 ? renderChanges(changes, t) : undefined, spent);
    const rich =
      notified.parts && notice.kind === "done" ? await richAnswerFor(this.#deps, notified.parts.head, notice.lastText ?? "", notified.parts.tail) : undefined;
    const rendered = {
      ...notified,
      rich,
      // Undo with the buttons beside it, and a row of their own for the others (git's) under them.
      ...(keyboard.length > 0 ? { keyboard } : {}),
    };
    try {
      const threadId = await topics.threadOf(notice.sessionID, directory);
      // A reply to the notice (or to the whole answer's file) reaches the session.
      const sent = await postAnswerMessage(
        this.#deps,
        // A run's end is what its person waits for (issue 50: ahead of spare traffic in a busy group); its retry notice too, so they stay in order.
        { chatId, threadId, owner, priority: Priority.Awaited, silent: notice.kind === "done" && this.#deps.digest?.quietDone(notice.sessionID) === true },
        rendered,
        notice.kind === "done" ? (notice.lastText ?? "") : "",
      );
      log.info(
        { kind: notice.kind, sessionID: notice.sessionID, changedFiles: changes.length, shortened: rendered.shortened, rich: rich !== undefined },
        "notice sent",
      );
      for (const [i, seam] of seams.entries()) if (sent && offered[i]!.length > 0) seam.posted?.({ chatId, messageId: sent.messageId }, offered[i]!);
      const diff = changesDiff(changes);
      if (sent && diff) await this.#sendDiff(diff, sent.messageId, threadId, owner);
      if (sent && notice.kind === "done") await this.#deps.spoken?.afterDone(owner, notice.lastText ?? "", sent.messageId, threadId);
    } catch (error) {
      log.warn({ err: errorText(error), kind: notice.kind }, "could not send a notice");
    }
  }
}
