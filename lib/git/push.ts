// Push: the current branch to a branch of the same name on its remote, never forced, never
// another branch. The remote is the branch's own (branch.<name>.remote), else the only remote,
// else "origin"; with no upstream yet, the push sets it (--set-upstream) to the same name. The URL
// shown is the one git will push to (`remote get-url --push`: a `pushurl`, `pushInsteadOf` and
// `insteadOf` applied), scrubbed of credentials; the push is refused when it is no longer the one
// shown (a `pushurl` planted after the confirmation), and a remote name git could read as an option
// (`--receive-pack=…`) or that is no valid remote name is refused. Positional arguments follow `--`.
import { failureText, NETWORK_TIMEOUT_MS } from "./run-tool.ts";
import { git, type GitAnswer } from "./repo.ts";
import { scrubCredentials } from "./scrub.ts";

export interface PushPlan {
  branch: string;
  remote: string;
  /** Where git will push, scrubbed. */
  url: string;
  /** The same, as git said it (compared before pushing; never shown). */
  pushUrl: string;
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
  if (!isRemoteName(remote)) return { ok: false, error: "the branch's remote has a name git could read as an option: push it from the terminal" };
  const url = await git(cwd, ["remote", "get-url", "--push", "--", remote]);
  const pushUrl = url.stdout.trim().split("\n")[0] ?? "";
  if (url.code !== 0 || pushUrl === "") return { ok: false, error: "git names no URL to push to" };
  return { ok: true, value: { branch: name, remote, url: scrubCredentials(pushUrl), pushUrl, setsUpstream: upstream === undefined } };
}

/** Pushes the planned branch, if it is still the current one. */
export async function push(cwd: string, plan: PushPlan): Promise<GitAnswer<string>> {
  const now = await planPush(cwd);
  if (!now.ok) return now;
  if (now.value.branch !== plan.branch || now.value.remote !== plan.remote)
    return { ok: false, error: `the checkout is now on ${now.value.branch}, not ${plan.branch}` };
  if (now.value.pushUrl !== plan.pushUrl) return { ok: false, error: `git would now push to ${now.value.url}, not to ${plan.url} as shown: nothing pushed` };
  const refspec = `refs/heads/${plan.branch}:refs/heads/${plan.branch}`;
  const args = ["push", "--porcelain", ...(now.value.setsUpstream ? ["--set-upstream"] : []), "--", plan.remote, refspec];
  const result = await git(cwd, args, { timeoutMs: NETWORK_TIMEOUT_MS });
  return result.code === 0 ? { ok: true, value: scrubCredentials(result.stdout.trim()) } : { ok: false, error: failureText(result, "git push") };
}

/** A remote's name git reads as a name: no option, no path tricks, the characters git allows in a ref's part. */
export function isRemoteName(name: string): boolean {
  return (
    /^[A-Za-z0-9_][A-Za-z0-9._/-]*$/.test(name) &&
    !name.includes("..") &&
    !name.endsWith(".") &&
    !name.endsWith("/") &&
    !name.endsWith(".lock") &&
    !name.includes("//")
  );
}
