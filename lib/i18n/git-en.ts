// The strings of git from the phone in English.
import { EMPTY_HTML, html } from "../text/html.ts";
import type { GitStrings } from "./git-strings.ts";

export const gitEn: GitStrings = {
  menu: "Uncommitted changes of a project: branch, files, the whole diff",
  help: html`• /diff (in reply to a session's message, or with a project picked) shows the uncommitted changes; a Done notice's <b>Commit</b>, <b>Push</b> and <b>Open pull request</b> finish the work; <code>/new --worktree</code> <i>instruction</i> runs it in a new git worktree.`,
  head: (project, branch) => html`🌿 <b>${project}</b> on <b>${branch}</b>`,
  detached: "(detached HEAD)",
  tracking: (upstream, ahead, behind) => html`${upstream}: ${ahead} ahead, ${behind} behind`,
  noUpstream: html`no upstream yet`,
  fileNew: " (new)",
  fileDeleted: " (deleted)",
  fileRenamed: " (renamed)",
  fileBinary: " (binary)",
  clean: html`Nothing uncommitted.`,
  moreFiles: (count) => html`… and ${count} more (in the .diff file)`,
  diffCaption: html`Everything uncommitted, as a diff`,
  pick: html`🌿 <b>Which project's changes?</b>`,
  notRepo: (why) => html`⚠️ Not a git repository here: ${why}`,
  commitButton: "✅ Commit",
  confirmCommit: "✅ Confirm commit",
  pushButton: "⬆️ Push",
  confirmPush: "⬆️ Confirm push",
  prButton: "🔀 Open pull request",
  removeButton: "🗑 Remove worktree",
  confirmRemove: "🗑 Confirm remove",
  worktreeButton: "🌿 New worktree",
  commitAsk: (branch, files, message) => html`✅ <b>Commit on ${branch}?</b>\n${files}\nMessage:\n<pre>${message}</pre>`,
  othersLeftOut: (count) => (count === 1 ? html`(1 other uncommitted file stays out of it)` : html`(${count} other uncommitted files stay out of it)`),
  replyToChange: html`Reply to this message with another message to use it instead.`,
  commitListed: (count, file) => html`${count} files, each listed in <code>${file}</code> (sent just above, in reply): Confirm commits those and no other.`,
  commitListCaption: (count) => html`The ${count} files Commit would commit, one a line.`,
  commitTooLong: (count) =>
    html`✅ <b>Not committed from the phone</b>: its ${count} files do not fit in one message, so the phone could not show them all. Commit them from the terminal.`,
  committing: "Committing…",
  committed: (hash, branch) => html`✅ Committed <code>${hash}</code> on <b>${branch}</b>`,
  commitFailed: (why) => html`❌ <b>Nothing committed</b>; the index and the files are as they were.\n<pre>${why}</pre>`,
  busy: "The session is working: commit once its run is over.",
  changedSince: (file) => `${file} changed again since the run: look at /diff, then commit from the terminal.`,
  underWay: (operation) => `A ${operation} is under way in this repository: finish it in the terminal first.`,
  pushAsk: (branch, remote, url, setsUpstream) =>
    html`⬆️ <b>Push ${branch}</b> to <b>${remote}</b> (<code>${url}</code>)?${setsUpstream ? html`\nIts upstream becomes ${remote}/${branch}.` : EMPTY_HTML}`,
  hooksRun: (names, directory) => html`⚙️ It runs the repository's hooks ${names} (in <code>${directory}</code>).`,
  pushing: "Pushing…",
  pushed: (branch, remote) => html`⬆️ Pushed <b>${branch}</b> to <b>${remote}</b>`,
  pushFailed: (why) => html`❌ <b>Not pushed</b>\n<pre>${why}</pre>`,
  opening: "Opening the pull request…",
  prOpened: (url) => html`🔀 Pull request: ${url}`,
  prFailed: (why) => html`❌ <b>No pull request</b>\n<pre>${why}</pre>`,
  ghMissing: html`⚠️ The GitHub CLI (gh) is not on this machine's PATH: install it to open pull requests from here.`,
  ghSignedOut: html`⚠️ The GitHub CLI (gh) is not signed in: run <code>gh auth login</code> on this machine.`,
  worktreeCreated: (branch, directory) => html`🌿 New worktree on <b>${branch}</b>: <code>${directory}</code>`,
  worktreeFailed: (why) => html`⚠️ Could not create the worktree: ${why}`,
  worktreeUsage: html`Use <code>/new --worktree</code> followed by the instruction.`,
  removeAsk: (directory, dirty) =>
    html`🗑 <b>Remove the worktree</b> <code>${directory}</code>? Its branch stays.${
      dirty === 0
        ? EMPTY_HTML
        : dirty === 1
          ? html`\n⚠️ It has 1 uncommitted change: they will be lost.`
          : html`\n⚠️ It has ${dirty} uncommitted changes: they will be lost.`
    }`,
  ignoredLost: (count, names) =>
    count === 1 ? html`⚠️ 1 ignored file or folder goes with it: ${names}.` : html`⚠️ ${count} ignored files or folders go with it: ${names}.`,
  andMore: (count) => `and ${count} more`,
  removing: "Removing…",
  removed: (directory, branch) => html`🗑 Removed <code>${directory}</code>; the branch <b>${branch}</b> stays.`,
  removeFailed: (why) => html`❌ <b>Not removed</b>\n<pre>${why}</pre>`,
  gone: "This is over: nothing to do.",
  working: "Already on it…",
};
