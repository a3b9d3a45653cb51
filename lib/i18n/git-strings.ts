// The shape of the strings of git from the phone (/diff, Commit, Push, Open pull request,
// /new --worktree, Remove worktree, docs/git.md): part of the catalogue (strings.ts' `git`), filled
// in by git-en.ts and git-zh.ts. Parameters typed Html come escaped; the rest are numbers or plain
// words. Plain strings are button labels, callback answers and words escaped where they are used.
import type { Html } from "../text/html.ts";

export interface GitStrings {
  /** The menu's line for /diff (plain), and /help's line for git. */
  menu: string;
  help: Html;
  /** /diff: the head line (branch and how it stands against its upstream), each file, nothing. */
  head: (project: Html, branch: Html) => Html;
  detached: string;
  tracking: (upstream: Html, ahead: number, behind: number) => Html;
  noUpstream: Html;
  fileNew: string;
  fileDeleted: string;
  fileRenamed: string;
  fileBinary: string;
  clean: Html;
  moreFiles: (count: number) => Html;
  diffCaption: Html;
  pick: Html;
  notRepo: (why: Html) => Html;
  /** Buttons (plain text). */
  commitButton: string;
  confirmCommit: string;
  pushButton: string;
  confirmPush: string;
  prButton: string;
  removeButton: string;
  confirmRemove: string;
  worktreeButton: string;
  /** The commit's confirmation. */
  commitAsk: (branch: Html, files: Html, message: Html) => Html;
  othersLeftOut: (count: number) => Html;
  replyToChange: Html;
  /** A commit whose files do not all fit in its confirmation: refused. */
  /** The confirmation's list when the whole list went out first as a file (issue 49). */
  commitListed: (count: number, file: Html) => Html;
  commitListCaption: (count: number) => Html;
  commitTooLong: (count: number) => Html;
  committing: string;
  committed: (hash: Html, branch: Html) => Html;
  commitFailed: (why: Html) => Html;
  /** Why Commit is refused (callback answers: plain). */
  busy: string;
  changedSince: (file: string) => string;
  underWay: (operation: string) => string;
  /** Push. */
  pushAsk: (branch: Html, remote: Html, url: Html, setsUpstream: boolean) => Html;
  /** The repository's hooks the commit or push will run, and where they are. */
  hooksRun: (names: Html, directory: Html) => Html;
  pushing: string;
  pushed: (branch: Html, remote: Html) => Html;
  pushFailed: (why: Html) => Html;
  /** Pull request. */
  opening: string;
  prOpened: (url: Html) => Html;
  prFailed: (why: Html) => Html;
  ghMissing: Html;
  ghSignedOut: Html;
  /** Worktrees. */
  worktreeCreated: (branch: Html, directory: Html) => Html;
  worktreeFailed: (why: Html) => Html;
  worktreeUsage: Html;
  removeAsk: (directory: Html, dirty: number) => Html;
  /** Ignored files and folders in a worktree to remove: deleted with it. */
  ignoredLost: (count: number, names: Html) => Html;
  andMore: (count: number) => string;
  removing: string;
  removed: (directory: Html, branch: Html) => Html;
  removeFailed: (why: Html) => Html;
  /** A tap on a git message that is over, or one already at work (plain). */
  gone: string;
  working: string;
}
