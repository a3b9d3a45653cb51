// The shape of the strings of git from the phone (/diff, Commit, Push, Open pull request,
// /new --worktree, Remove worktree, docs/git.md): part of the catalogue (strings.ts' `git`), filled
// in by git-en.ts and git-zh.ts. Parameters named `branch`, `project`, `remote`, `url`, `why`,
// `message` and `file` come escaped; the rest are numbers or plain words.
export interface GitStrings {
  /** The menu's line for /diff, and /help's line for git. */
  menu: string;
  help: string;
  /** /diff: the head line (branch and how it stands against its upstream), each file, nothing. */
  head: (project: string, branch: string) => string;
  detached: string;
  tracking: (upstream: string, ahead: number, behind: number) => string;
  noUpstream: string;
  fileNew: string;
  fileDeleted: string;
  fileRenamed: string;
  fileBinary: string;
  clean: string;
  moreFiles: (count: number) => string;
  diffCaption: string;
  pick: string;
  notRepo: (why: string) => string;
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
  commitAsk: (branch: string, files: string, message: string) => string;
  othersLeftOut: (count: number) => string;
  replyToChange: string;
  messageReplaced: string;
  committing: string;
  committed: (hash: string, branch: string) => string;
  commitFailed: (why: string) => string;
  /** Why Commit is refused. */
  busy: string;
  changedSince: (file: string) => string;
  underWay: (operation: string) => string;
  nothingToCommit: string;
  /** Push. */
  pushAsk: (branch: string, remote: string, url: string, setsUpstream: boolean) => string;
  pushing: string;
  pushed: (branch: string, remote: string) => string;
  pushFailed: (why: string) => string;
  /** Pull request. */
  opening: string;
  prOpened: (url: string) => string;
  prFailed: (why: string) => string;
  ghMissing: string;
  ghSignedOut: string;
  /** Worktrees. */
  worktreeCreated: (branch: string, directory: string) => string;
  worktreeFailed: (why: string) => string;
  worktreeUsage: string;
  removeAsk: (directory: string, dirty: number) => string;
  removing: string;
  removed: (directory: string, branch: string) => string;
  removeFailed: (why: string) => string;
  /** A tap on a git message that is over (plain text). */
  gone: string;
  working: string;
  notServed: string;
}
