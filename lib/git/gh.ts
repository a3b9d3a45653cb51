// Pull requests through the user's own `gh`: whether it is there and signed in, and
// `gh pr create` for a branch with a commit's message. Its output is scrubbed like git's.
import { failureText, NETWORK_TIMEOUT_MS, runTool } from "./run-tool.ts";
import type { GitAnswer } from "./repo.ts";

export type GhState = "ready" | "missing" | "signedOut";

export async function ghState(cwd: string): Promise<GhState> {
  const result = await runTool("gh", ["auth", "status"], { cwd, timeoutMs: NETWORK_TIMEOUT_MS });
  if (result.missing) return "missing";
  return result.code === 0 ? "ready" : "signedOut";
}

/** Opens the pull request; its URL (gh prints it last). Values joined to their flags: a title starting with "-" stays a title. */
export async function createPullRequest(cwd: string, branch: string, message: string): Promise<GitAnswer<string>> {
  const [title = branch, ...rest] = message.split("\n");
  const body = rest.join("\n").trim();
  const result = await runTool("gh", ["pr", "create", `--head=${branch}`, `--title=${title}`, `--body=${body}`], { cwd, timeoutMs: NETWORK_TIMEOUT_MS });
  if (result.code !== 0) return { ok: false, error: failureText(result, "gh") };
  const url = result.stdout
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => /^https?:\/\//.test(line))
    .pop();
  return url ? { ok: true, value: url } : { ok: false, error: "gh did not print the pull request's address" };
}
