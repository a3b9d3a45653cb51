// The worktrees Hermes made in this process (/new --worktree), by directory: their branch, and
// the link through which OpenCode serves them until the worktree is removed. One writer:
// worktree-sessions.ts adds, worktree-taps.ts forgets.
import type { InstanceLink } from "../core/desk.ts";
import type { InstanceLinks } from "../core/instance-links.ts";

export interface MadeWorktree {
  directory: string;
  branch: string;
}

export class WorktreeBook {
  readonly #made = new Map<string, { worktree: MadeWorktree; link: InstanceLink }>();
  readonly #links: Pick<InstanceLinks, "add" | "delete">;

  constructor(links: Pick<InstanceLinks, "add" | "delete">) {
    this.#links = links;
  }

  /** A new worktree, served through `link` (the project's OpenCode speaking for the worktree's directory). */
  add(worktree: MadeWorktree, link: InstanceLink): void {
    this.#links.add(link);
    this.#made.set(worktree.directory, { worktree, link });
  }

  get(directory: string): MadeWorktree | undefined {
    return this.#made.get(directory)?.worktree;
  }

  forget(directory: string): void {
    const made = this.#made.get(directory);
    if (!made) return;
    this.#made.delete(directory);
    this.#links.delete(made.link);
  }
}
