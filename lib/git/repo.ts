// One project's git, as Hermes reads it: the status with line counts, the whole uncommitted diff,
// whether a merge or rebase is under way, and the commit of named files (commit-files.ts). Every
// call runs the user's own `git` in the project's directory (run-tool.ts). Reading only: what
// changes the repository is in commit-files.ts, push.ts and worktrees.ts.
import fs from "node:fs";
import path from "node:path";
import { failureText, runTool, type ToolResult } from "./run-tool.ts";
import { parseNumstat, parseStatus, type LineCount, type RepoStatus, type StatusEntry } from "./status-parse.ts";

/** git's own name for the tree of an empty repository. */
export const EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";
/** New files whose lines are counted and diffed one by one; the rest are named. */
const NEW_FILES_READ = 50;

export type GitAnswer<T> = { ok: true; value: T } | { ok: false; error: string };

export interface ChangedFile extends StatusEntry, LineCount {}

export interface Changes {
  status: RepoStatus;
  files: ChangedFile[];
  /** The whole diff against HEAD, new files included (binary ones named by git, never as text). */
  diff: string;
}

export type Operation = "merge" | "rebase" | "cherry-pick" | "revert" | undefined;

export function git(
  cwd: string,
  args: readonly string[],
  extra: { env?: Record<string, string>; input?: string; timeoutMs?: number } = {},
): Promise<ToolResult> {
  return runTool("git", args, { cwd, ...extra });
}

/**
 * Reading runs nothing of the repository's choosing: no fsmonitor hook, no pager, no external diff
 * and no textconv program (a cloned or agent-edited config can name any of them). Filters named in
 * `.gitattributes` stay git's to run: a clean filter runs when `status` must compare a file's content.
 */
const READ_ONLY = ["-c", "core.fsmonitor=false", "-c", "core.pager=cat", "--no-pager"];
const READ_ENV = { GIT_PAGER: "cat", PAGER: "cat" };

/** A git call that only reads (status, diff, log, rev-parse). */
export function readGit(cwd: string, args: readonly string[]): Promise<ToolResult> {
  const [command, ...rest] = args;
  const diffing = command === "diff" || command === "show" || command === "log";
  return git(cwd, [...READ_ONLY, command!, ...(diffing ? ["--no-ext-diff", "--no-textconv"] : []), ...rest], { env: READ_ENV });
}

/** The repository's top directory, or why there is none. */
export async function repoRoot(cwd: string): Promise<GitAnswer<string>> {
  const result = await git(cwd, ["rev-parse", "--show-toplevel"]);
  return result.code === 0 ? { ok: true, value: result.stdout.trim() } : { ok: false, error: failureText(result, "git") };
}

export async function readStatus(cwd: string): Promise<GitAnswer<RepoStatus>> {
  const result = await readGit(cwd, ["status", "--porcelain=v2", "--branch", "-z", "--untracked-files=all"]);
  return result.code === 0 ? { ok: true, value: parseStatus(result.stdout) } : { ok: false, error: failureText(result, "git") };
}

/** Everything uncommitted: status, per-file lines added and removed, and the diff. */
export async function readChanges(cwd: string): Promise<GitAnswer<Changes>> {
  const status = await readStatus(cwd);
  if (!status.ok) return status;
  const base = status.value.unborn ? EMPTY_TREE : "HEAD";
  const [numstat, diff] = await Promise.all([
    readGit(cwd, ["diff", base, "--numstat", "-z", "--no-renames"]),
    readGit(cwd, ["diff", base, "--no-renames", "--no-color"]),
  ]);
  if (numstat.code !== 0) return { ok: false, error: failureText(numstat, "git") };
  const counts = parseNumstat(numstat.stdout);
  const parts = [diff.stdout];
  const newFiles = status.value.entries.filter((entry) => entry.kind === "new" && !entry.staged);
  for (const entry of newFiles.slice(0, NEW_FILES_READ)) {
    // git diff --no-index exits 1 when the files differ: that is its answer, not a failure.
    const args = ["diff", "--no-index", "--no-color", "--", "/dev/null", entry.path];
    const [count, text] = await Promise.all([readGit(cwd, [...args.slice(0, 2), "--numstat", "-z", ...args.slice(3)]), readGit(cwd, args)]);
    const counted = [...parseNumstat(count.stdout).values()][0];
    if (counted) counts.set(entry.path, counted);
    parts.push(text.stdout);
  }
  const files = status.value.entries.map((entry) => ({ ...entry, ...(counts.get(entry.path) ?? { added: 0, removed: 0, binary: false }) }));
  return { ok: true, value: { status: status.value, files, diff: parts.join("") } };
}

/** A merge, rebase, cherry-pick or revert under way (git's own marker files in its directory). */
export async function operationUnderWay(cwd: string): Promise<Operation> {
  const result = await git(cwd, ["rev-parse", "--git-dir"]);
  if (result.code !== 0) return undefined;
  const gitDir = path.resolve(cwd, result.stdout.trim());
  const marks: Array<[string, Operation]> = [
    ["MERGE_HEAD", "merge"],
    ["rebase-merge", "rebase"],
    ["rebase-apply", "rebase"],
    ["CHERRY_PICK_HEAD", "cherry-pick"],
    ["REVERT_HEAD", "revert"],
  ];
  for (const [mark, operation] of marks) if (fs.existsSync(path.join(gitDir, mark))) return operation;
  return undefined;
}

/** The newest commit's message (a pull request's title and body). */
export async function lastCommitMessage(cwd: string): Promise<GitAnswer<string>> {
  const result = await readGit(cwd, ["log", "-1", "--format=%B"]);
  return result.code === 0 ? { ok: true, value: result.stdout.trim() } : { ok: false, error: failureText(result, "git") };
}

/** The ignored files and folders (git's own `!!` entries: a folder counts once), which removing a worktree deletes too. */
export async function ignoredFiles(cwd: string): Promise<GitAnswer<string[]>> {
  const result = await readGit(cwd, ["status", "--porcelain=v1", "-z", "--ignored=matching", "--untracked-files=normal"]);
  if (result.code !== 0) return { ok: false, error: failureText(result, "git") };
  const names = result.stdout
    .split("\0")
    .filter((entry) => entry.startsWith("!! "))
    .map((entry) => entry.slice(3));
  return { ok: true, value: names };
}
