// The shell from the phone on the gate (issue 53, docs/phone.md): `!command` typed as a reply to a
// session's message or in its topic, and a flagged command's Run and Cancel. Added before the
// bridge's own routes: typed text would otherwise become the session's next prompt, and UserInput
// calls any tap it does not know stale.
import type { Gate } from "../core/gate.ts";
import { SessionPosts, type SessionPostDeps } from "../core/session-posts.ts";
import { type ShellDeps, ShellRuns } from "./shell-runs.ts";

export function routeShell(gate: Gate, deps: Omit<ShellDeps, "posts"> & SessionPostDeps): void {
  const runs = new ShellRuns({ ...deps, posts: new SessionPosts(deps, "a shell command's message") });
  gate.route("callback", { claim: (tap) => runs.claimTap(tap) });
  gate.route("text", { claim: (text) => runs.claimText(text) });
}
