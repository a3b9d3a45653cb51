// A commit of exactly the named files, nothing half-done. The commit is built in a private index
// (GIT_INDEX_FILE) that starts as HEAD's tree: `git add -- <files>` there, then `git commit` (the
// repository's hooks run, and see only those files staged). Whatever the user had staged stays
// staged and out of the commit; a failing hook leaves the real index and the files as they were.
// Once committed, `git reset -q -- <files>` brings the real index's entries for those files up
// to the new HEAD (what `git commit --only` does, which cannot take new files).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { failureText } from "./run-tool.ts";
import { git, type GitAnswer } from "./repo.ts";

export interface Committed {
  /** Short hash. */
  hash: string;
  branch: string | undefined;
}

export async function commitFiles(cwd: string, files: readonly string[], message: string): Promise<GitAnswer<Committed>> {
  if (files.length === 0) return { ok: false, error: "no files to commit" };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "hermes-commit-"));
  // Literal pathspecs: a file named ":(glob)**" (an agent can make one) is that file, not everything.
  const env = { GIT_INDEX_FILE: path.join(dir, "index"), GIT_LITERAL_PATHSPECS: "1" };
  try {
    const head = await git(cwd, ["rev-parse", "--verify", "-q", "HEAD"]);
    const start = await git(cwd, head.code === 0 ? ["read-tree", "HEAD"] : ["read-tree", "--empty"], { env });
    if (start.code !== 0) return { ok: false, error: failureText(start, "git read-tree") };
    const added = await git(cwd, ["add", "-A", "--", ...files], { env });
    if (added.code !== 0) return { ok: false, error: failureText(added, "git add") };
    const committed = await git(cwd, ["commit", "-q", "-F", "-"], { env, input: message });
    if (committed.code !== 0) return { ok: false, error: failureText(committed, "git commit") };
    // The real index now follows the new HEAD for these files (other staged files stay staged).
    await git(cwd, ["reset", "-q", "--", ...files], { env: { GIT_LITERAL_PATHSPECS: "1" } });
    const [hash, branch] = await Promise.all([git(cwd, ["rev-parse", "--short", "HEAD"]), git(cwd, ["symbolic-ref", "-q", "--short", "HEAD"])]);
    return { ok: true, value: { hash: hash.stdout.trim(), branch: branch.code === 0 ? branch.stdout.trim() : undefined } };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
