// Git from the phone on the gate (issue 44, docs/git.md): /diff (diff-command.ts), the Commit,
// Push, Open pull request and Remove worktree buttons (git-taps.ts), a reply replacing a commit's
// message, and /new --worktree (worktree-sessions.ts; a plain /new is steering's).
import type { InlineButton } from "../../telegram/wire/rendered-message.ts";
import type { Gate } from "../core/gate.ts";
import type { DoneButtons } from "../runs/done-buttons.ts";
import type { InstanceLinks } from "../core/instance-links.ts";
import { DiffCommand, type DiffCommandDeps } from "./diff-command.ts";
import { SessionPosts } from "../core/session-posts.ts";
import { GitTaps, type GitTapDeps } from "./git-taps.ts";
import { WorktreeBook } from "./worktree-book.ts";
import { WorktreeSessions, type WorktreeSessionDeps } from "./worktree-sessions.ts";

export type GitRouteDeps = Omit<GitTapDeps & DiffCommandDeps & WorktreeSessionDeps, "posts" | "taps" | "worktrees" | "links" | "rich"> & {
  links: InstanceLinks;
};

/** The Done notice's git buttons, for RunNotices made before the gate: there once `route` has added git's routes. */
export class GitButtons implements DoneButtons {
  readonly row = "below";
  #taps: Pick<GitTaps, "buttonsFor"> | undefined;

  buttonsFor(...args: Parameters<DoneButtons["buttonsFor"]>): Promise<InlineButton[]> {
    return this.#taps?.buttonsFor(...args) ?? Promise.resolve([]);
  }

  route(gate: Gate, deps: GitRouteDeps): void {
    this.#taps = routeGit(gate, deps);
  }
}

/** The routes; what the Done notice asks for its git buttons. */
export function routeGit(gate: Gate, deps: GitRouteDeps): Pick<GitTaps, "buttonsFor"> {
  const posts = new SessionPosts(deps, "a git message");
  const worktrees = new WorktreeBook(deps.links);
  const taps = new GitTaps({ ...deps, posts, worktrees });
  const diff = new DiffCommand({ ...deps, posts, taps, rich: () => deps.telegram.sendRichMessage !== undefined });
  const sessions = new WorktreeSessions({ ...deps, posts, worktrees });
  gate.route("callback", { claim: (tap) => taps.claimTap(tap) ?? diff.claimTap(tap) ?? sessions.claimTap(tap) });
  gate.route("text", { claim: (text) => taps.claimText(text) ?? diff.claimText(text) });
  gate.route("command", {
    unclaimed: (command, after) => diff.unclaimed(command, after.parts) ?? sessions.unclaimed(command, after.parts),
    gathers: (command) => diff.gathers(command) || sessions.gathers(command),
    partFor: async (command) => (await diff.partFor(command)) ?? (await sessions.partFor(command)),
  });
  return taps;
}
