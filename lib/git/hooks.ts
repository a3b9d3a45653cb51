// The repository's hooks a commit or a push from the phone will run (issue 49): git runs what is
// executable in its hooks directory, which `core.hooksPath` may move anywhere, so the confirmation
// names them and where they are. Asked of git itself (`rev-parse --git-path hooks`).
import fs from "node:fs";
import path from "node:path";
import { git } from "./repo.ts";

/** The hooks `git commit` runs, in the order it runs them. */
export const COMMIT_HOOKS = ["pre-commit", "prepare-commit-msg", "commit-msg", "post-commit", "reference-transaction"];
/** The hooks `git push` runs on this side. */
export const PUSH_HOOKS = ["pre-push", "reference-transaction"];

export interface HooksToRun {
  /** Where git looks for them (after `core.hooksPath`). */
  directory: string;
  names: string[];
}

/** Which of `names` git would run in `cwd`'s repository; none when git can't say. */
export async function hooksToRun(cwd: string, names: readonly string[]): Promise<HooksToRun> {
  const result = await git(cwd, ["rev-parse", "--git-path", "hooks"]);
  if (result.code !== 0) return { directory: "", names: [] };
  const directory = path.resolve(cwd, result.stdout.trim());
  const found = names.filter((name) => {
    try {
      fs.accessSync(path.join(directory, name), fs.constants.X_OK);
      return fs.statSync(path.join(directory, name)).isFile();
    } catch {
      return false;
    }
  });
  return { directory, names: found };
}
