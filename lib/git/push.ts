// Push: the current branch to a branch of the same name on its remote, never forced, never
// another branch. The remote is the branch's own (branch.<name>.remote), else the only remote,
// else "origin"; with no upstream yet, the push sets it (--set-upstream) to the same name. The
// remote's URL is shown only scrubbed of credentials.
import { failureText, NETWORK_TIMEOUT_MS } from "./run-tool.ts";
import { git, type GitAnswer } from "./repo.ts";
import { scrubCredentials } from "./scrub.ts";

export interface PushPlan {
  branch: string;
  remote: string;
  /** Scrubbed. */
  url: string;
  /** The branch has no upstream yet: the push sets it. */
  setsUpstream: boolean;
}

export async function planPush(cwd: string): Promise<GitAnswer<PushPlan>> {
  const branch = await git(cwd, ["symbolic-ref", "-q", "--short", "HEAD"]);
  if (branch.code !== 0) return { ok: false, error: "HEAD is detached: no branch to push" };
  const name = branch.stdout.trim();
  const [own, remotes, merge] = await Promise.all([
    git(cwd, ["config", "--get", `branch.${name}.remote`]),
    git(cwd, ["remote"]),
    git(cwd, ["config", "--get", `branch.${name}.merge`]),
  ]);
  const all = remotes.stdout.split("\n").filter((line) => line !== "");
  const remote = own.code === 0 ? own.stdout.trim() : all.length === 1 ? all[0]! : all.includes("origin") ? "origin" : undefined;
  if (remote === undefined || !all.includes(remote))
    return { ok: false, error: all.length === 0 ? "the repository has no remote" : "no remote for this branch (several, none named origin)" };
  const upstream = merge.code === 0 ? merge.stdout.trim() : undefined;
  if (upstream !== undefined && upstream !== `refs/heads/${name}`)
    return { ok: false, error: `the branch's upstream is ${upstream.replace(/^refs\/heads\//, "")}, another name: push it from the terminal` };
  const url = await git(cwd, ["remote", "get-url", remote]);
  return { ok: true, value: { branch: name, remote, url: scrubCredentials(url.stdout.trim()), setsUpstream: upstream === undefined } };
}

/** Pushes the planned branch, if it is still the current one. */
export async function push(cwd: string, plan: PushPlan): Promise<GitAnswer<string>> {
  const now = await planPush(cwd);
  if (!now.ok) return now;
  if (now.value.branch !== plan.branch || now.value.remote !== plan.remote)
    return { ok: false, error: `the checkout is now on ${now.value.branch}, not ${plan.branch}` };
  const refspec = `refs/heads/${plan.branch}:refs/heads/${plan.branch}`;
  const args = ["push", "--porcelain", ...(now.value.setsUpstream ? ["--set-upstream"] : []), plan.remote, refspec];
  const result = await git(cwd, args, { timeoutMs: NETWORK_TIMEOUT_MS });
  return result.code === 0 ? { ok: true, value: scrubCredentials(result.stdout.trim()) } : { ok: false, error: failureText(result, "git push") };
}
