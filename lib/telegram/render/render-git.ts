// What git from the phone looks like (docs/git.md): /diff's summary, the Commit, Push and Remove
// worktree confirmations and their outcomes, and their buttons. Pure. File names, branches and
// git's own words are untrusted text: shown through reveal, escaped, cut on graphemes.
import type { Strings } from "../../i18n/catalog.ts";
import { encodeCallback, type GitAction } from "../codec.ts";
import { EMPTY_HTML, escapedHead, escapedTail, escapeHtml, escapeWithin, html, type Html, joinHtml, MESSAGE_LIMIT } from "../../text/html.ts";
import { LABEL_ROOM } from "./machine-label.ts";
import { reveal } from "../../text/reveal.ts";
import type { InlineButton, RenderedMessage } from "../wire/rendered-message.ts";

const NAME_LIMIT = 120;
const LISTED_FILES = 20;
/** git's own words (a hook's output, a refusal): the end matters most, and the message stays short. */
const OUTPUT_LIMIT = 1_500;
const COMMIT_MESSAGE_LIMIT = 1_500;

export interface DiffFileView {
  path: string;
  kind: "modified" | "new" | "deleted" | "renamed" | "conflict";
  added: number;
  removed: number;
  binary: boolean;
}

export interface DiffView {
  project: string;
  branch: string | undefined;
  upstream: string | undefined;
  ahead: number;
  behind: number;
  files: readonly DiffFileView[];
}

const shown = (text: string, t: Strings, max = NAME_LIMIT) => escapeWithin(reveal(text, t), max);
/** The end of a long output (git prints what went wrong last). */
function tail(text: string, t: Strings): Html {
  const revealed = reveal(text, t);
  const end = escapedTail(revealed, OUTPUT_LIMIT);
  return end.length < revealed.length ? html`…${end.html}` : end.html;
}

export function gitButton(action: GitAction, key: string, t: Strings): InlineButton {
  const labels: Record<GitAction, string> = {
    commit: t.git.commitButton,
    commitConfirm: t.git.confirmCommit,
    push: t.git.pushButton,
    pushConfirm: t.git.confirmPush,
    pullRequest: t.git.prButton,
    removeWorktree: t.git.removeButton,
    removeConfirm: t.git.confirmRemove,
  };
  const red = action === "pushConfirm" || action === "removeConfirm";
  return { text: labels[action], callback_data: encodeCallback({ key, action, question: 0, option: 0 }), ...(red ? { style: "danger" as const } : {}) };
}

/** /diff's first lines: the project, its branch, and how it stands against its upstream. */
export function diffHead(view: DiffView, t: Strings): Html {
  const branch = view.branch === undefined ? escapeHtml(t.git.detached) : shown(view.branch, t);
  const lines = [t.git.head(shown(view.project, t), branch)];
  if (view.branch !== undefined) lines.push(view.upstream ? t.git.tracking(shown(view.upstream, t), view.ahead, view.behind) : t.git.noUpstream);
  return joinHtml(lines, "\n");
}

export function renderDiff(view: DiffView, t: Strings): Html {
  const lines = [diffHead(view, t)];
  if (view.files.length === 0) lines.push(t.git.clean);
  for (const file of view.files.slice(0, LISTED_FILES)) {
    const kind = file.kind === "new" ? t.git.fileNew : file.kind === "deleted" ? t.git.fileDeleted : file.kind === "renamed" ? t.git.fileRenamed : "";
    const count = file.binary ? t.git.fileBinary : ` +${file.added} −${file.removed}`;
    lines.push(html`<code>${shown(file.path, t)}</code>${escapeHtml(kind + count)}`);
  }
  if (view.files.length > LISTED_FILES) lines.push(t.git.moreFiles(view.files.length - LISTED_FILES));
  return joinHtml(lines, "\n");
}

export interface CommitAskView {
  branch: string;
  files: readonly string[];
  /** Uncommitted files that are not the run's: left out. */
  others: number;
  message: string;
  /** The repository's hooks the commit runs. */
  hooks?: HooksToRun;
}

/** Room a commit's confirmation may take: a message, less a machine's label and a margin. */
const COMMIT_ROOM = MESSAGE_LIMIT - LABEL_ROOM - 100;

/** A path's start and end when it is long (the end names the file). */
function shownPath(path: string, t: Strings): Html {
  const revealed = reveal(path, t);
  if (escapeHtml(revealed).length <= NAME_LIMIT) return escapeHtml(revealed);
  const head = escapedHead(revealed, 60);
  const end = escapedTail(revealed.slice(head.length), NAME_LIMIT - 61 - head.html.length + 60);
  return html`${head.html}…${end.html}`;
}

/** The file a commit's whole list goes out as when the confirmation can't hold it. */
export const COMMIT_LIST_FILE = "commit-files.txt";

/** That file: every path Commit would commit, one a line (a path with a line break or a control character quoted as JSON). */
export function commitListText(files: readonly string[]): string {
  return `${files.map((file) => (/[\u0000-\u001f\u007f"]/.test(file) ? JSON.stringify(file) : file)).join("\n")}\n`;
}

/**
 * Commit's confirmation: every file it commits; `listed`: the whole list went out just before as
 * COMMIT_LIST_FILE, which it names instead; when the files do not fit and were not sent, a refusal without Confirm.
 */
export function renderCommitAsk(view: CommitAskView, key: string, t: Strings, listed = false): RenderedMessage {
  const files = listed
    ? t.git.commitListed(view.files.length, escapeHtml(COMMIT_LIST_FILE))
    : joinHtml(
        view.files.map((file) => html`<code>${shownPath(file, t)}</code>`),
        "\n",
      );
  const others = view.others > 0 ? html`\n${t.git.othersLeftOut(view.others)}` : EMPTY_HTML;
  const text = html`${t.git.commitAsk(shown(view.branch, t), html`${files}${others}`, shown(view.message, t, COMMIT_MESSAGE_LIMIT))}${hooksLine(view.hooks, t)}\n${t.git.replyToChange}`;
  if (text.length > COMMIT_ROOM) return { text: t.git.commitTooLong(view.files.length), keyboard: [] };
  return { text, keyboard: [[gitButton("commitConfirm", key, t)]] };
}

/** After a commit: Push, and Open pull request when gh can. */
export function renderCommitted(hash: string, branch: string, key: string, t: Strings): RenderedMessage {
  return { text: t.git.committed(shown(hash, t), shown(branch, t)), keyboard: [[gitButton("push", key, t)]] };
}

export type GitFailure = "commit" | "push" | "pr" | "remove";

/** A failure in git's own (scrubbed) words; `retry`: the button that tries again. */
export function renderGitFailure(what: GitFailure, why: string, t: Strings, retry?: InlineButton): RenderedMessage {
  const words = { commit: t.git.commitFailed, push: t.git.pushFailed, pr: t.git.prFailed, remove: t.git.removeFailed }[what];
  return { text: words(tail(why, t)), keyboard: retry ? [[retry]] : [] };
}

/** The repository's hooks a commit or push runs, and where git looks for them. */
export interface HooksToRun {
  directory: string;
  names: string[];
}

export interface PushAskView {
  branch: string;
  remote: string;
  url: string;
  setsUpstream: boolean;
  /** The repository's hooks the push runs. */
  hooks?: HooksToRun;
}

/** "It runs the repository's hooks pre-commit, commit-msg (in …)"; nothing when none will run. */
function hooksLine(hooks: HooksToRun | undefined, t: Strings): Html {
  if (!hooks || hooks.names.length === 0) return EMPTY_HTML;
  const names = joinHtml(
    hooks.names.map((name) => html`<code>${shown(name, t)}</code>`),
    html`, `,
  );
  return html`\n${t.git.hooksRun(names, shown(hooks.directory, t, 200))}`;
}

export function renderPushAsk(view: PushAskView, key: string, t: Strings): RenderedMessage {
  return {
    text: html`${t.git.pushAsk(shown(view.branch, t), shown(view.remote, t), shown(view.url, t, 200), view.setsUpstream)}${hooksLine(view.hooks, t)}`,
    keyboard: [[gitButton("pushConfirm", key, t)]],
  };
}

/** After a push: Open pull request, when gh is there and signed in. */
export function renderPushed(view: PushAskView, key: string, withPr: boolean, t: Strings): RenderedMessage {
  return { text: t.git.pushed(shown(view.branch, t), shown(view.remote, t)), keyboard: withPr ? [[gitButton("pullRequest", key, t)]] : [] };
}

export function renderPullRequest(url: string, t: Strings): RenderedMessage {
  return { text: t.git.prOpened(shown(url, t, 300)), keyboard: [] };
}

/** Ignored files named on a removal's confirmation at most; the rest are counted. */
const IGNORED_NAMED = 5;

/** `ignored`: git's ignored files and folders in it (they are deleted too). */
export function renderRemoveAsk(directory: string, dirty: number, key: string, t: Strings, ignored: readonly string[] = []): RenderedMessage {
  const names = joinHtml(
    ignored.slice(0, IGNORED_NAMED).map((name) => html`<code>${shown(name, t, 80)}</code>`),
    html`, `,
  );
  const more = ignored.length > IGNORED_NAMED ? html` ${escapeHtml(t.git.andMore(ignored.length - IGNORED_NAMED))}` : EMPTY_HTML;
  const lost = ignored.length > 0 ? html`\n${t.git.ignoredLost(ignored.length, html`${names}${more}`)}` : EMPTY_HTML;
  return { text: html`${t.git.removeAsk(shown(directory, t, 300), dirty)}${lost}`, keyboard: [[gitButton("removeConfirm", key, t)]] };
}

export function renderRemoved(directory: string, branch: string, t: Strings): RenderedMessage {
  return { text: t.git.removed(shown(directory, t, 300), shown(branch, t)), keyboard: [] };
}
