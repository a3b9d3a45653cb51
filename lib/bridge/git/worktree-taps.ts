// Remove worktree, on the Done notice of a run in a worktree Hermes made (/new --worktree): a red
// confirmation that says how many uncommitted changes would be lost, then `git worktree remove`
// (with --force only when the confirmation said so). The branch stays. The book of worktrees
// Hermes made in this process is worktree-book.ts'.
import type { Strings } from "../../i18n/catalog.ts";
import { ignoredFiles, readStatus } from "../../git/repo.ts";
import { removeWorktree } from "../../git/worktrees.ts";
import type { Logger } from "../../system/log.ts";
import type { MessageRef } from "../../registry/prompt.ts";
import { renderGitFailure, renderRemoveAsk, renderRemoved } from "../../telegram/render/render-git.ts";
import type { SessionPosts, PostWhere } from "../core/session-posts.ts";
import type { GitTarget } from "./git-targets.ts";
import type { WorktreeBook } from "./worktree-book.ts";

export type { WorktreeBook } from "./worktree-book.ts";

export interface WorktreeTapDeps {
  t: Strings;
  log: Logger;
  posts: SessionPosts;
  worktrees: WorktreeBook;
}

export class WorktreeTaps {
  readonly #deps: WorktreeTapDeps;

  constructor(deps: WorktreeTapDeps) {
    this.#deps = deps;
  }

  async tap(action: "removeWorktree" | "removeConfirm", target: GitTarget, tapped: MessageRef | undefined, where: PostWhere): Promise<void> {
    const { t, posts, log, worktrees } = this.#deps;
    const worktree = target.worktree;
    if (!worktree) return;
    if (action === "removeWorktree") {
      const [status, ignored] = await Promise.all([readStatus(worktree.directory), ignoredFiles(worktree.directory)]);
      worktree.dirty = status.ok ? status.value.entries.length : 0;
      // Ignored files (a copied .env) go with the folder too: the confirmation counts and names them.
      await posts.post(renderRemoveAsk(worktree.directory, worktree.dirty, target.key, t, ignored.ok ? ignored.value : []), where);
      return;
    }
    if (!tapped) return;
    // Forced only when the confirmation named the changes it loses; a worktree that became dirty since is refused by git.
    const outcome = await removeWorktree(worktree.directory, (worktree.dirty ?? 0) > 0);
    log.info({ removed: outcome.ok, forced: (worktree.dirty ?? 0) > 0 }, "worktree removed from the phone");
    if (outcome.ok) {
      worktree.removed = true;
      worktrees.forget(worktree.directory);
    }
    await posts.edit(tapped, outcome.ok ? renderRemoved(worktree.directory, worktree.branch, t) : renderGitFailure("remove", outcome.error, t));
  }
}
