// The answer as it is written (HERMES_STREAM): in a private chat a draft (sendMessageDraft; a rich
// draft, sendRichMessageDraft, where the Bot API has rich messages: tables, code, headings as the
// Done notice shows them, up to 32,768 characters; a server without them answers "method not found"
// and today's drafts go from then on, logged once) that grows, one per run, at most one call per DRAFT_EVERY_MS and only when what it shows changed; in
// a group (or once Telegram refused drafts) the run's progress message shows the answer's last
// lines, with spare budget only (live-progress.ts, the outbox's lowest priority: a prompt never
// waits behind it). Only a run whose end the phone hears of (a Done notice follows: the message
// that stays, the draft being ephemeral). The text and the pacing are pure (lib/progress/answer-text.ts),
// the HTML the renderer's (lib/telegram/render/render-draft.ts). Drafts do not go through the outbox: they are not
// messages and spend none of the chat's message budget; a 429 pauses them as told.
import type { Strings } from "../../i18n/catalog.ts";
import type { Logger } from "../../system/log.ts";
import type { HermesEvent } from "../../hermes-events.ts";
import type { ActivityTracker } from "../../notices/activity.ts";
import { draftDue, draftSource, NO_ANSWER, reduceAnswer, type AnswerText, type DraftPace } from "../../progress/answer-text.ts";
import type { Registry } from "../../registry/registry.ts";
import { RichMessagesMissing, TelegramApiError, type TelegramApi } from "../../telegram/wire/api.ts";
import { loadRichDraft, type RichDraftRenderer } from "../../rich/rich-markdown.ts";
import type { RichHtml } from "../../telegram/wire/rendered-message.ts";
import { loadMarkdown, type Markdown } from "../../text/markdown.ts";
import { renderAnswerTail, renderDraft } from "../../telegram/render/render-draft.ts";
import { errorText } from "../../util/error-text.ts";
import { withTimeout } from "../../util/with-timeout.ts";
import { CALL_TIMEOUT_MS } from "../../telegram/wire/timeouts.ts";
import type { LiveProgress } from "./live-progress.ts";
import type { Html } from "../../text/html.ts";

/** At most one draft per run this often (Telegram animates each; a faster stream shows its latest state). */
export const DRAFT_EVERY_MS = 1_000;

export interface AnswerStreamDeps {
  telegram: Pick<TelegramApi, "sendDraft" | "sendRichDraft">;
  registry: Registry;
  log: Logger;
  t: Strings;
  chatId: number;
  now: () => number;
  activity: Pick<ActivityTracker, "endsWithDone">;
  /** Where a group's stream (and a private chat's, once drafts are refused) shows; none: progress is off. */
  progress?: Pick<LiveProgress, "showAnswer">;
  /** Drafts in this chat (a private chat with HERMES_STREAM on); else the progress message when `tail`. */
  drafts: boolean;
  /** The progress message shows the answer's last lines (a group with HERMES_STREAM=on). */
  tail: boolean;
  /** Tests only: the drafts' interval (DRAFT_EVERY_MS). */
  draftEveryMs?: number;
}

interface Run {
  draftId: number;
  answer: AnswerText;
  pace: DraftPace;
  sending?: true;
  timer?: ReturnType<typeof setTimeout>;
}

/**
 * The stream these settings ask for, if any: `stream` undefined (HERMES_STREAM unset) is on in a
 * private chat (drafts), off in a group; on in a group, the progress message shows the answer.
 */
export function answerStream(
  deps: Omit<AnswerStreamDeps, "chatId" | "drafts" | "tail"> & { chatId: number | undefined },
  stream: boolean | undefined,
): AnswerStream | undefined {
  const { chatId } = deps;
  if (chatId === undefined || !(stream ?? chatId > 0)) return undefined;
  if (chatId < 0 && !deps.progress) return undefined;
  return new AnswerStream({ ...deps, chatId, drafts: chatId > 0, tail: chatId < 0 });
}

export class AnswerStream {
  readonly #deps: AnswerStreamDeps;
  readonly #runs = new Map<string, Run>();
  readonly #everyMs: number;
  /** A draft id per run, unique in this process (Telegram wants a non-zero one). */
  #nextDraftId = 1 + Math.floor(Math.random() * 2 ** 30);
  /** Telegram refused a draft: the progress message shows the answer for the rest of the process. */
  #draftsRefused = false;
  #markdown?: Markdown;
  /** The rich drafts' renderer, when the client has them and marked loaded; dropped when the server refuses them. */
  #rich?: RichDraftRenderer | undefined;
  #loading?: Promise<void>;

  constructor(deps: AnswerStreamDeps) {
    this.#deps = deps;
    this.#everyMs = deps.draftEveryMs ?? DRAFT_EVERY_MS;
  }

  observe(event: HermesEvent): void {
    switch (event.type) {
      case "session.status":
        if (event.status === "idle") this.#end(event.sessionID);
        else if (this.#isRoot(event.sessionID) && !this.#runs.has(event.sessionID))
          this.#runs.set(event.sessionID, { draftId: this.#nextDraftId++, answer: NO_ANSWER, pace: {} });
        return;
      case "session.idle":
      case "session.error":
      case "session.deleted":
        this.#end(event.sessionID);
        return;
      case "message.role":
      case "message.text":
      case "message.delta": {
        const run = this.#runs.get(event.sessionID);
        if (!run) return; // a sub-agent's text, or a run that ended: never the answer shown
        const next = reduceAnswer(run.answer, event);
        if (next.text === run.answer.text) {
          run.answer = next;
          return;
        }
        run.answer = next;
        this.#changed(event.sessionID, run);
        return;
      }
      default:
        return;
    }
  }

  stop(): void {
    for (const run of this.#runs.values()) clearTimeout(run.timer);
    this.#runs.clear();
  }

  #isRoot(sessionID: string): boolean {
    return this.#deps.registry.sessions.rootOf(sessionID) === sessionID;
  }

  #end(sessionID: string): void {
    const run = this.#runs.get(sessionID);
    if (!run) return;
    clearTimeout(run.timer);
    this.#runs.delete(sessionID);
  }

  #changed(sessionID: string, run: Run): void {
    const { drafts, tail, activity, now } = this.#deps;
    if (!drafts && !tail) return;
    if (!activity.endsWithDone(sessionID, now())) return;
    if (!this.#markdown) {
      this.#loading ??= Promise.all([loadMarkdown(), this.#deps.telegram.sendRichDraft ? loadRichDraft() : undefined]).then(([markdown, rich]) => {
        this.#markdown = markdown;
        this.#rich = rich;
        for (const [id, waiting] of this.#runs) if (waiting.answer.text) this.#changed(id, waiting);
      });
      return;
    }
    if (drafts && !this.#draftsRefused) this.#draft(sessionID, run);
    else this.#deps.progress?.showAnswer(sessionID, renderAnswerTail(run.answer.text, this.#markdown, this.#deps.t));
  }

  /** The run's draft now if it is due, else once it is (one call under way per run at most). */
  #draft(sessionID: string, run: Run): void {
    if (run.sending || run.timer || this.#runs.get(sessionID) !== run) return;
    const rich = this.#rich?.(draftSource(run.answer.text), this.#deps.t);
    const draft: { html: Html } | { rich: RichHtml } = rich !== undefined ? { rich } : { html: renderDraft(run.answer.text, this.#markdown, this.#deps.t) };
    const due = draftDue(run.pace, "rich" in draft ? draft.rich : draft.html, this.#deps.now(), this.#everyMs);
    if (!due) return;
    if ("waitMs" in due) {
      run.timer = setTimeout(() => {
        run.timer = undefined;
        this.#draft(sessionID, run);
      }, due.waitMs);
      run.timer.unref?.();
      return;
    }
    void this.#send(sessionID, run, draft);
  }

  async #send(sessionID: string, run: Run, draft: { html: Html } | { rich: RichHtml }): Promise<void> {
    const { telegram, chatId, log, now } = this.#deps;
    run.sending = true;
    run.pace = { ...run.pace, sentAt: now(), sent: "rich" in draft ? draft.rich : draft.html };
    try {
      // Not through the outbox, so bounded here: a draft that hangs never holds the next one back for long.
      const call = "rich" in draft ? telegram.sendRichDraft!(chatId, run.draftId, draft.rich) : telegram.sendDraft(chatId, run.draftId, draft.html);
      await withTimeout(call, CALL_TIMEOUT_MS, () => new Error("no answer to a draft"));
    } catch (error) {
      // Not shown: the same text may go again.
      const { sent: _lost, ...rest } = run.pace;
      run.pace = rest;
      if ("rich" in draft && (error instanceof RichMessagesMissing || (error instanceof TelegramApiError && error.code === 400))) this.#richRefused(error);
      else if (error instanceof TelegramApiError && error.code === 429) run.pace.blockedUntil = now() + (error.retryAfterSeconds ?? 1) * 1_000;
      else if (error instanceof TelegramApiError && !error.isTransient && !error.isParseError) this.#refused(error);
      else log.debug({ err: errorText(error) }, "a draft of the answer was not sent");
    } finally {
      delete run.sending;
    }
    if (this.#draftsRefused) return;
    this.#draft(sessionID, run);
  }

  /** Rich drafts refused ("method not found", or a 400): today's drafts from now on, said once; the next goes at once. */
  #richRefused(error: unknown): void {
    if (this.#rich === undefined) return;
    this.#rich = undefined;
    const { log } = this.#deps;
    if (error instanceof RichMessagesMissing) {
      if (error.first) log.warn({}, "this Bot API server has no rich messages (sendRichMessageDraft: method not found): drafts go as HTML from now on");
    } else log.warn({ err: errorText(error) }, "Telegram refused a rich draft of the answer: drafts go as HTML from now on");
  }

  /** Telegram refused drafts (an older Bot API server, or a 400): the progress message shows the answer from now on, said once. */
  #refused(error: TelegramApiError): void {
    if (this.#draftsRefused) return;
    if (!this.#deps.progress) this.#deps.log.warn("with live progress off (HERMES_PROGRESS=off), the answer shows only in the Done notice");
    this.#draftsRefused = true;
    this.#deps.log.warn(
      { err: errorText(error) },
      "Telegram refused a draft of the answer: the progress message shows the answer instead, for the rest of this process",
    );
    for (const [sessionID, run] of this.#runs) {
      clearTimeout(run.timer);
      run.timer = undefined;
      if (run.answer.text) this.#changed(sessionID, run);
    }
  }
}
