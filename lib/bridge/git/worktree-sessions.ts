// /new --worktree <instruction>, and the 🌿 button of /new's project picker (docs/git.md): a git
// worktree beside the project on a new branch named from the instruction (hermes/<slug>), and a
// new session there, started like any /new (Running or progress, Done; with topics in its own
// topic, named by the branch). The project's OpenCode serves the worktree's directory (its
// endpoint's `at`); the worktree's Done notice then offers Commit, Push and Remove worktree.
// Gathered like /new: every process adds its directories, the one that polls answers.
import { repoRoot } from "../../git/repo.ts";
import { RecentIds } from "../../util/recent-ids.ts";
import { addWorktree } from "../../git/worktrees.ts";
import type { Claim } from "../../relay/update-handler.ts";
import { decodeCallback } from "../../telegram/codec.ts";
import { renderPicked } from "../../telegram/render/render-new.ts";
import { escapeHtml, escapeWithin } from "../../text/html.ts";
import { parseCommand } from "../../telegram/wire/updates.ts";
import { Priority } from "../../telegram/wire/outbox.ts";
import type { Chat } from "../core/chat.ts";
import type { ActingCommand, ActingTap } from "../core/gate.ts";
import type { InstanceLinks } from "../core/instance-links.ts";
import { directoryWithKey, gatheredDirectories, type ProjectsPart, projectPicker } from "../steering/projects-part.ts";
import { startSession, type StartSessionDeps } from "../steering/start-session.ts";
import type { UserMessage } from "../runs/talk-back.ts";
import type { SessionPosts } from "../core/session-posts.ts";
import type { WorktreeBook } from "./worktree-book.ts";

export interface WorktreeSessionDeps extends StartSessionDeps {
  links: Pick<InstanceLinks, "linkFor" | "directories">;
  chat: Pick<Chat, "reply" | "send" | "answerCallback">;
  posts: SessionPosts;
  worktrees: WorktreeBook;
}

const FLAG = /^--worktree(?:\s+|$)/;
const PICKED_LIMIT = 100;

/** The instruction of `/new --worktree …` (or of a plain /new when its picker's 🌿 was tapped). */
export function worktreeInstruction(args: string): string {
  return args.replace(FLAG, "").trim();
}

export class WorktreeSessions {
  readonly #deps: WorktreeSessionDeps;
  /** Pickers already tapped here: a second tap starts nothing. */
  readonly #picked = new RecentIds<string>(PICKED_LIMIT);

  constructor(deps: WorktreeSessionDeps) {
    this.#deps = deps;
  }

  gathers(intent: ActingCommand): boolean {
    return intent.name === "new" && FLAG.test(intent.args);
  }

  async partFor(intent: ActingCommand): Promise<ProjectsPart | undefined> {
    return this.gathers(intent) ? { directories: this.#deps.links.directories() } : undefined;
  }

  unclaimed(intent: ActingCommand, received: readonly unknown[] | undefined): Promise<void> | undefined {
    if (!this.gathers(intent)) return undefined;
    return this.#answer(intent, received ?? []);
  }

  claimTap(intent: ActingTap): Claim | undefined {
    const data = decodeCallback(intent.data);
    if (data?.action !== "worktreeIn") return undefined;
    const directory = directoryWithKey(this.#deps.links.directories(), data.key);
    if (directory === undefined) return undefined;
    return async () => {
      const { chat, t, posts } = this.#deps;
      const chatId = intent.from.chatId;
      const id = `${chatId}:${intent.messageId}`;
      if (!this.#picked.add(id)) return chat.answerCallback(intent.id, t.steer.starting);
      await chat.answerCallback(intent.id, t.steer.starting);
      if (chatId === undefined || intent.messageId === undefined) return;
      await posts.edit({ chatId, messageId: intent.messageId }, renderPicked(directory, t));
      const command = intent.replied ? parseCommand(intent.replied.text) : undefined;
      const text = command?.name === "new" ? worktreeInstruction(command.args) : "";
      if (text === "" || !intent.replied) return chat.reply(t.git.worktreeUsage, intent.messageId);
      await this.#create(directory, text, { chatId, messageId: intent.replied.messageId });
    };
  }

  async #answer(intent: ActingCommand, received: readonly unknown[]): Promise<void> {
    const { t, chat, links } = this.#deps;
    const text = worktreeInstruction(intent.args);
    if (text === "") return chat.reply(t.git.worktreeUsage, intent.messageId);
    const directories = gatheredDirectories(received);
    if (directories.length === 0) return chat.reply(escapeHtml(t.steer.noProject), intent.messageId);
    if (directories.length === 1 && links.linkFor(directories[0]!))
      return this.#create(directories[0]!, text, { chatId: intent.from.chatId, messageId: intent.messageId });
    const picker = projectPicker(directories, t, { action: "worktreeIn" });
    await chat.send(picker.text, { keyboard: picker.keyboard, replyTo: intent.messageId }, Priority.Answer, "could not answer /new --worktree");
  }

  async #create(directory: string, text: string, userMessage: UserMessage): Promise<void> {
    const { t, chat, links, log, worktrees } = this.#deps;
    const failed = (why: string) => chat.reply(t.git.worktreeFailed(escapeWithin(why, 500)), userMessage.messageId, userMessage.threadId);
    const project = links.linkFor(directory);
    const root = await repoRoot(directory);
    if (!root.ok) return failed(root.error);
    if (!project?.opencode.at) return failed(t.talk.notRunning);
    const made = await addWorktree(root.value, text);
    log.info({ ok: made.ok }, "worktree for a new session from the phone");
    if (!made.ok) return failed(made.error);
    worktrees.add(made.value, { directory: made.value.directory, opencode: project.opencode.at(made.value.directory) });
    await chat.reply(
      t.git.worktreeCreated(escapeWithin(made.value.branch, 200), escapeWithin(made.value.directory, 500)),
      userMessage.messageId,
      userMessage.threadId,
    );
    await startSession(this.#deps, { directory: made.value.directory, text, userMessage, title: made.value.branch });
  }
}
