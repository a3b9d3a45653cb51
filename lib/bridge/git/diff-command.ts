// /diff: a project's uncommitted changes (docs/git.md). Sent as a reply to a session's message,
// for that session's directory (claimed by the process that serves it); otherwise gathered like
// /new: every process adds the directories it serves, the one that polls answers: one project
// straight away, several as a picker whose tap the serving process claims. The answer: the branch,
// how it stands against its upstream, each file with lines added and removed (new, deleted and
// binary ones marked), the whole diff as `changes.diff`, and Push when there is something to push.
// Where the Bot API has rich messages it is one rich message with each file's change in its own
// collapsible block (lib/telegram/render/render-diff-rich.ts), and `changes.diff` follows only when some did not fit.
import type { Strings } from "../../i18n/catalog.ts";
import { readChanges } from "../../git/repo.ts";
import type { Logger } from "../../system/log.ts";
import type { MessageOwner, Registry } from "../../registry/registry.ts";
import type { Claim } from "../../relay/update-handler.ts";
import { decodeCallback } from "../../telegram/codec.ts";
import { projectName } from "../../telegram/render/render-context.ts";
import { CHANGES_FILE } from "../../telegram/render/render-changes.ts";
import { gitButton, renderDiff } from "../../telegram/render/render-git.ts";
import { renderDiffRich } from "../../telegram/render/render-diff-rich.ts";
import { escapeHtml, escapeWithin } from "../../text/html.ts";
import { renderPicked } from "../../telegram/render/render-new.ts";
import { Priority } from "../../telegram/wire/outbox.ts";
import type { Chat } from "../core/chat.ts";
import type { ActingCommand, ActingTap, ActingText } from "../core/gate.ts";
import type { InstanceLinks } from "../core/instance-links.ts";
import { directoryWithKey, gatheredDirectories, type ProjectsPart, projectPicker } from "../steering/projects-part.ts";
import type { SessionPosts } from "../core/session-posts.ts";
import type { GitTaps } from "./git-taps.ts";

export interface DiffCommandDeps {
  t: Strings;
  log: Logger;
  registry: Registry;
  links: Pick<InstanceLinks, "linkFor" | "directories">;
  chat: Pick<Chat, "reply" | "send" | "answerCallback">;
  /** Whether the client has rich messages (/diff then renders its rich form). */
  rich: () => boolean;
  posts: SessionPosts;
  taps: Pick<GitTaps, "pushTarget">;
}

/** `/diff` (or `/diff@bot`) sent as a reply: a reply starting with "/" arrives as text. */
const DIFF_COMMAND = /^\/diff(?:@[A-Za-z0-9_]+)?\s*$/i;

export class DiffCommand {
  readonly #deps: DiffCommandDeps;

  constructor(deps: DiffCommandDeps) {
    this.#deps = deps;
  }

  gathers(intent: ActingCommand): boolean {
    return intent.name === "diff";
  }

  async partFor(intent: ActingCommand): Promise<ProjectsPart | undefined> {
    return intent.name === "diff" ? { directories: this.#deps.links.directories() } : undefined;
  }

  /** /diff in reply to a message of a session this process serves. */
  claimText(intent: ActingText): Claim | undefined {
    if (intent.replyTo === undefined || intent.from.chatId === undefined || !DIFF_COMMAND.test(intent.text.trim())) return undefined;
    const owner = this.#deps.registry.ownerOf({ chatId: intent.from.chatId, messageId: intent.replyTo });
    if (!owner || !this.#deps.links.linkFor(owner.directory)) return undefined;
    return () => this.#show(owner.directory, intent.messageId, owner, intent.threadId);
  }

  unclaimed(intent: ActingCommand, received: readonly unknown[] | undefined): Promise<void> | undefined {
    if (intent.name !== "diff") return undefined;
    return this.#answer(intent, received ?? []);
  }

  claimTap(intent: ActingTap): Claim | undefined {
    const data = decodeCallback(intent.data);
    if (data?.action !== "diffIn") return undefined;
    const directory = directoryWithKey(this.#deps.links.directories(), data.key);
    if (directory === undefined) return undefined;
    return async () => {
      const { chat, t, posts } = this.#deps;
      await chat.answerCallback(intent.id);
      if (intent.messageId === undefined || intent.from.chatId === undefined) return;
      await posts.edit({ chatId: intent.from.chatId, messageId: intent.messageId }, renderPicked(directory, t));
      await this.#show(directory, intent.messageId, undefined, undefined);
    };
  }

  async #answer(intent: ActingCommand, received: readonly unknown[]): Promise<void> {
    const { t, chat } = this.#deps;
    const directories = gatheredDirectories(received);
    if (directories.length === 0) return chat.reply(escapeHtml(t.steer.noProject), intent.messageId);
    if (directories.length === 1 && this.#deps.links.linkFor(directories[0]!)) return this.#show(directories[0]!, intent.messageId, undefined, undefined);
    const picker = projectPicker(directories, t, { action: "diffIn" });
    await chat.send(t.git.pick, { keyboard: picker.keyboard, replyTo: intent.messageId }, Priority.Answer, "could not answer /diff");
  }

  async #show(directory: string, replyTo: number, owner: MessageOwner | undefined, threadId: number | undefined): Promise<void> {
    const { t, posts, log } = this.#deps;
    const changes = await readChanges(directory);
    log.info({ ok: changes.ok, files: changes.ok ? changes.value.files.length : 0 }, "/diff");
    if (!changes.ok) return void (await posts.post({ text: t.git.notRepo(escapeWithin(changes.error, 500)), keyboard: [] }, { owner, replyTo, threadId }));
    const { status, files, diff } = changes.value;
    const view = { project: projectName(directory), branch: status.branch, upstream: status.upstream, ahead: status.ahead, behind: status.behind, files };
    const pushable = status.branch !== undefined && !status.unborn && (status.upstream === undefined || status.ahead > 0);
    const keyboard = pushable ? [[gitButton("push", this.#deps.taps.pushTarget(directory, owner, threadId).key, t)]] : [];
    const rich = this.#deps.rich() ? renderDiffRich(view, diff, t) : undefined;
    const sent = await posts.post({ text: renderDiff(view, t), keyboard, rich: rich?.rich }, { owner, replyTo, threadId });
    if (sent?.rich && !rich?.needsFile) return;
    if (sent && diff !== "") await posts.document(CHANGES_FILE, diff, t.git.diffCaption, { owner, threadId, replyTo: sent.messageId });
  }
}
