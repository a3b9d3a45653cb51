import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

/**
 * Makes `directory` a git repository with these files committed (OpenCode snapshots a run's files,
 * and so can revert them, only in a git project). Call it before the project's instance starts.
 */
export function gitProject(directory: string, files: Record<string, string>): void {
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(directory, name), text);
  const git = (...args: string[]) => execFileSync("git", ["-c", "user.email=t@example.com", "-c", "user.name=T", ...args], { cwd: directory, stdio: "ignore" });
  git("init", "-q");
  git("add", ".");
  git("commit", "-qm", "start");
}
