// The OpenCode instances (one per project directory) this process answers through. The links it
// hands out add the phone's choice of model and agent to every prompt (prompt-choices.ts), and say
// which session the phone prompts (the digest's "started from the phone").
import type { PromptChoice } from "../../opencode/endpoint.ts";
import type { Prompt } from "../../registry/registry.ts";
import type { InstanceLink } from "./desk.ts";
import { steered } from "./prompt-choices.ts";

export class InstanceLinks {
  /** Each link as it was added → the one handed out. */
  readonly #links = new Map<InstanceLink, InstanceLink>();
  readonly #choice: () => PromptChoice;
  #watcher: { promptedFromPhone(sessionID: string): void } | undefined;

  constructor(choice: () => PromptChoice = () => ({})) {
    this.#choice = choice;
  }

  /** Who hears of every prompt sent through these links (the digest: the run it starts is the phone's). */
  watchPrompts(watcher: { promptedFromPhone(sessionID: string): void }): void {
    this.#watcher = watcher;
  }

  add(link: InstanceLink): void {
    const prompted = (sessionID: string) => this.#watcher?.promptedFromPhone(sessionID);
    this.#links.set(link, { directory: link.directory, opencode: steered(link.opencode, this.#choice, prompted) });
  }

  delete(link: InstanceLink): void {
    this.#links.delete(link);
  }

  /** The link for a directory: the newest wins (a re-attached instance replaces the old one). */
  linkFor(directory: string): InstanceLink | undefined {
    let found: InstanceLink | undefined;
    for (const link of this.#links.values()) if (link.directory === directory) found = link;
    return found;
  }

  /** The project directories served here, each once. */
  directories(): string[] {
    return [...new Set([...this.#links.keys()].map((link) => link.directory))];
  }

  /** Whether OpenCode still lists the prompt's request as pending (false when its instance is gone or can't be asked). */
  async stillPending(prompt: Prompt): Promise<boolean> {
    const opencode = this.linkFor(prompt.directory)?.opencode;
    if (!opencode) return false;
    const pending = await (prompt.kind === "question" ? opencode.listQuestions() : opencode.listPermissions()).catch(() => []);
    return pending.some((request) => request.id === prompt.requestID);
  }
}
