// /history (issue 43): as a reply to a session's message, the session's last prompts, newest first,
// a page at a time, each with the files its run changed; a tap on one offers ⏪ Go back here
// (OpenCode's revert to that user message, after a red confirmation naming the files it puts back:
// those of that run and of every later one, which the revert undoes too, each changed since by hand
// marked: hand-edits.ts)
// and ⑂ Fork here (fork-control.ts, before that prompt). Going back shares Undo's refusals: while
// the session works, and when the session went on since the list (a newer run).
import type { MessageOwner } from "../../registry/registry.ts";
import { KeyedLists } from "../../registry/keyed-lists.ts";
import { errorText } from "../../util/error-text.ts";
import type { CallbackData, VocabularyAction } from "../../telegram/codec.ts";
import { escapeHtml, escapeWithin, html, type Html } from "../../text/html.ts";
import { repoRoot } from "../../git/repo.ts";
import {
  filesGoingBack,
  type GoBackMark,
  renderGoBackConfirm,
  renderHistory,
  renderHistoryPick,
  renderHistoryRich,
  type PromptView,
} from "../../telegram/render/render-vocabulary.ts";
import type { Tap } from "../core/desk.ts";
import type { ForkControl } from "./fork-control.ts";
import { handMarks } from "./hand-edits.ts";
import type { VocabularyDesk } from "./vocabulary-desk.ts";

interface Listing {
  owner: MessageOwner;
  entries: PromptView[];
  page: number;
  /** A Go back here under way or done: its buttons answer so. */
  state: "offered" | "working" | "done";
  /** Each confirmation shown (by the prompt's index): its marks and the repository's top they were read from. */
  shown: Map<number, Shown>;
}

interface Shown {
  marks: ReadonlyMap<string, GoBackMark>;
  root: string | undefined;
}

const HISTORY_ACTIONS = new Set<string>(["historyPick", "historyPage", "historyBack", "historyConfirm", "historyFork"]);

export class HistoryControl {
  readonly #posts: VocabularyDesk;
  readonly #forks: Pick<ForkControl, "fork">;
  readonly #lists = new KeyedLists<Listing>();

  constructor(posts: VocabularyDesk, forks: Pick<ForkControl, "fork">) {
    this.#posts = posts;
    this.#forks = forks;
  }

  owns(data: CallbackData): boolean {
    return HISTORY_ACTIONS.has(data.action) && this.#lists.get(data.key) !== undefined;
  }

  async offer(owner: MessageOwner, replyTo: number): Promise<void> {
    const { t, log } = this.#posts.deps;
    const route = this.#posts.route(owner, "history", "history");
    if ("refusal" in route) return void (await this.#posts.post(owner, route.refusal, [], replyTo));
    let entries: PromptView[];
    try {
      entries = await route.call(owner.sessionID);
    } catch (error) {
      log.warn({ err: errorText(error) }, "could not read the session's prompts");
      return void (await this.#posts.post(owner, t.vocabulary.failed(escapeWithin(errorText(error), 300)), [], replyTo));
    }
    const key = this.#lists.add({ owner, entries, page: 0, state: "offered", shown: new Map() });
    const title = this.#posts.titleOf(owner);
    const rendered = renderHistory(entries, title, key, 0, t);
    const rich = this.#posts.rich ? renderHistoryRich(entries, title, 0, t) : undefined;
    await this.#posts.post(owner, rendered.text, rendered.keyboard, replyTo, rich);
  }

  tap(data: CallbackData<VocabularyAction>, message: { chatId: number; messageId: number } | undefined): Tap {
    const { t, activity } = this.#posts.deps;
    const listing = this.#lists.get(data.key)!;
    const { owner } = listing;
    const title = this.#posts.titleOf(owner);
    if (data.action === "historyPage") {
      if (!message || listing.page === data.question) return { ok: true, note: () => "" };
      listing.page = data.question;
      const rendered = renderHistory(listing.entries, title, data.key, data.question, t);
      const rich = this.#posts.rich ? renderHistoryRich(listing.entries, title, data.question, t) : undefined;
      return { ok: true, note: () => "", next: () => this.#posts.edit(message, rendered.text, rendered.keyboard, rich) };
    }
    const entry = listing.entries[data.question];
    if (!entry) return { ok: false, note: (t) => t.vocabulary.history.gone, alert: true };
    switch (data.action) {
      case "historyPick": {
        const pick = renderHistoryPick(entry, data.question, data.key, t);
        return { ok: true, note: () => "", next: () => this.#posts.post(owner, pick.text, pick.keyboard, message?.messageId).then(() => undefined) };
      }
      case "historyFork":
        return { ok: true, note: (t) => t.vocabulary.fork.forking, next: () => this.#forks.fork(owner, { before: entry.messageID }, message?.messageId) };
      case "historyBack": {
        if (activity.isBusy(owner.sessionID)) return { ok: false, note: (t) => t.vocabulary.history.busy, alert: true };
        // OpenCode's revert to a message undoes every later run too: the confirmation names all their files, each changed since by hand marked.
        const index = data.question;
        const confirmed = async () => {
          const found = await repoRoot(owner.directory).catch(() => undefined);
          const root = found?.ok ? found.value : undefined;
          const shown = { root, marks: handMarks(listing.entries, index, filesGoingBack(listing.entries, index), root) };
          listing.shown.set(index, shown);
          const confirm = renderGoBackConfirm(listing.entries, index, title, data.key, t, shown.marks);
          if (message) await this.#posts.edit(message, confirm.text, confirm.keyboard);
        };
        return { ok: true, note: (t) => t.vocabulary.history.tapConfirm, next: confirmed };
      }
      default: {
        if (listing.state !== "offered")
          return { ok: false, note: (t) => (listing.state === "working" ? t.vocabulary.history.going : t.vocabulary.history.newer), alert: true };
        if (activity.isBusy(owner.sessionID)) return { ok: false, note: (t) => t.vocabulary.history.busy, alert: true };
        const shown = listing.shown.get(data.question);
        if (!shown) return { ok: false, note: (t) => t.vocabulary.history.gone, alert: true };
        // A confirmation that could not list every file offered no Confirm: a tap that still comes is refused.
        if (renderGoBackConfirm(listing.entries, data.question, title, data.key, t, shown.marks).keyboard.length === 0)
          return { ok: false, note: (t) => t.vocabulary.history.tooManyTap, alert: true };
        // A file changed by hand after the confirmation was shown would be overwritten unseen: refused, to be asked again.
        const unseen = newlyHandEdited(shown, handMarks(listing.entries, data.question, filesGoingBack(listing.entries, data.question), shown.root));
        if (unseen !== undefined) return { ok: false, note: (t) => t.vocabulary.history.handSinceConfirm(unseen), alert: true };
        listing.state = "working";
        return { ok: true, note: (t) => t.vocabulary.history.going, next: () => this.#goBack(listing, entry, title, message) };
      }
    }
  }

  /** Reverts the session to before `entry`, unless it went on since the list (then nothing is asked of OpenCode). */
  async #goBack(listing: Listing, entry: PromptView, title: Html, message: { chatId: number; messageId: number } | undefined): Promise<void> {
    const { t, log, links } = this.#posts.deps;
    const { owner } = listing;
    const history = this.#posts.route(owner, "history", "history");
    const opencode = links.linkFor(owner.directory)?.opencode;
    let text: Html;
    const now = "call" in history ? await history.call(owner.sessionID).catch(() => undefined) : undefined;
    if (!opencode || !now) text = html`⚠️ ${t.vocabulary.notRunning}`;
    else if (now[0]?.messageID !== listing.entries[0]?.messageID) text = html`⚠️ ${escapeHtml(t.vocabulary.history.newer)}`;
    else {
      const outcome = await opencode.revertRun(owner.sessionID, entry.messageID);
      log.info({ sessionID: owner.sessionID, outcome }, "session gone back from the phone");
      if (outcome.ok && outcome.snapshot && outcome.files.length > 0) text = t.vocabulary.history.backDone(title, outcome.files.length);
      else if (outcome.ok) {
        // As Undo does (lib/bridge/runs/undo-control.ts): a revert that restored nothing (no git, or 1.1.53 with no record of the runs' changes) is taken back.
        await opencode.unrevertRun(owner.sessionID);
        text = outcome.snapshot ? t.vocabulary.failed(escapeWithin(t.undo.noneRestored, 300)) : t.undo.noGit(title);
      } else text = outcome.gone ? html`⚠️ ${escapeHtml(t.talk.sessionGone)}` : t.vocabulary.failed(escapeWithin(outcome.error, 300));
      listing.state = outcome.ok && outcome.snapshot && outcome.files.length > 0 ? "done" : "offered";
    }
    if (listing.state === "working") listing.state = "offered";
    if (message) await this.#posts.edit(message, text);
    else await this.#posts.post(owner, text);
  }
}

/** The first file changed by hand now that the confirmation did not show as such. */
function newlyHandEdited(shown: Shown, now: ReadonlyMap<string, GoBackMark>): string | undefined {
  for (const [file, mark] of now) if (mark === "hand" && shown.marks.get(file) !== "hand") return file;
  return undefined;
}
