// Worktrees for parallel work: `git worktree add -b hermes/<slug> <dir>` beside the project (the
// directory is the project's name and the slug), and `git worktree remove` (--force only when the
// user confirmed losing its uncommitted changes). The branch stays: it holds the work.
import fs from "node:fs";
import path from "node:path";
import { failureText } from "./run-tool.ts";
import { git, type GitAnswer } from "./repo.ts";

export const WORKTREE_BRANCH_PREFIX = "hermes/";
const SLUG_LIMIT = 40;

/** A branch-safe slug of an instruction: lowercase ASCII words joined by "-" ("task" when none). */
export function slugOf(instruction: string): string {
  const words = instruction
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, " ")
    .trim()
    .split(" ")
    .filter((word) => word !== "");
  let slug = "";
  for (const word of words) {
    const next = slug === "" ? word : `${slug}-${word}`;
    if (next.length > SLUG_LIMIT) break;
    slug = next;
  }
  return slug === "" ? "task" : slug;
}

export interface Worktree {
  directory: string;
  branch: string;
}

/** A new worktree beside the repository at `root`, on a new branch from HEAD; a free name is found by numbering. */
export async function addWorktree(root: string, instruction: string): Promise<GitAnswer<Worktree>> {
  const slug = slugOf(instruction);
  for (let attempt = 1; attempt <= 20; attempt++) {
    const suffix = attempt === 1 ? "" : `-${attempt}`;
    const branch = `${WORKTREE_BRANCH_PREFIX}${slug}${suffix}`;
    const directory = path.join(path.dirname(root), `${path.basename(root)}-${slug}${suffix}`);
    const taken = await git(root, ["rev-parse", "--verify", "-q", `refs/heads/${branch}`]);
    if (taken.code === 0 || fs.existsSync(directory)) continue;
    const result = await git(root, ["worktree", "add", "-q", "-b", branch, directory, "HEAD"]);
    if (result.code !== 0) return { ok: false, error: failureText(result, "git worktree add") };
    return { ok: true, value: { directory, branch } };
  }
  return { ok: false, error: "no free name for the worktree" };
}

/** Removes the worktree's directory (its branch stays); `force`: even with uncommitted changes. */
export async function removeWorktree(directory: string, force: boolean): Promise<GitAnswer<true>> {
  const common = await git(directory, ["rev-parse", "--path-format=absolute", "--git-common-dir"]);
  if (common.code !== 0) return { ok: false, error: failureText(common, "git") };
  const main = path.dirname(common.stdout.trim());
  const result = await git(main, ["worktree", "remove", ...(force ? ["--force"] : []), directory]);
  return result.code === 0 ? { ok: true, value: true } : { ok: false, error: failureText(result, "git worktree remove") };
}
