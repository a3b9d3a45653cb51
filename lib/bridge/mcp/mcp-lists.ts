// /mcp from the phone (issue 53, docs/phone.md): a project's MCP servers with their state as
// OpenCode reports it, each with a toggle that connects or disconnects it through OpenCode's own
// routes, and the list read again and edited after the change. Asked as a reply to a session's
// message or in its topic (that session's project, claimed by the process serving it), or on its
// own: gathered like /diff, one project straight away, several as a picker. Nothing here edits
// opencode.json. A list's key lives in the process that posted it: a tap elsewhere is not claimed.
import type { Strings } from "../../i18n/catalog.ts";
import type { Logger } from "../../system/log.ts";
import type { McpServerState } from "../../opencode/endpoint.ts";
import type { MessageRef } from "../../registry/prompt.ts";
import { newPromptKey, type MessageOwner, type Registry } from "../../registry/registry.ts";
import type { Claim } from "../../relay/update-handler.ts";
import { decodeCallback } from "../../telegram/codec.ts";
import { projectName } from "../../telegram/render/render-context.ts";
import { renderMcpList, togglesOn } from "../../telegram/render/render-mcp.ts";
import { renderPicked } from "../../telegram/render/render-new.ts";
import { escapeHtml, escapeWithin, type Html } from "../../text/html.ts";
import { Priority } from "../../telegram/wire/outbox.ts";
import type { Chat } from "../core/chat.ts";
import type { ActingCommand, ActingTap, ActingText } from "../core/gate.ts";
import type { InstanceLinks } from "../core/instance-links.ts";
import type { PostWhere, SessionPosts } from "../core/session-posts.ts";
import type { SessionTopics } from "../core/topics.ts";
import { directoryWithKey, gatheredDirectories, projectPicker, type ProjectsPart } from "../steering/projects-part.ts";

export interface McpDeps {
  t: Strings;
  log: Logger;
  registry: Pick<Registry, "ownerOf" | "inputFor">;
  topics: Pick<SessionTopics, "ownerOf">;
  links: Pick<InstanceLinks, "linkFor" | "directories">;
  chat: Pick<Chat, "reply" | "send" | "answerCallback">;
  posts: SessionPosts;
}

/** `/mcp` (or `/mcp@bot`) typed as a reply: a reply starting with "/" arrives as text. */
const MCP_COMMAND = /^\/mcp(?:@[A-Za-z0-9_]+)?\s*$/i;
/** Lists remembered for their toggles; the oldest go. */
const LIST_LIMIT = 100;
const WHY_LIMIT = 300;

interface McpList {
  directory: string;
  servers: McpServerState[];
  where: PostWhere;
  message?: MessageRef;
  working?: true;
}

export class McpLists {
  readonly #deps: McpDeps;
  readonly #lists = new Map<string, McpList>();

  constructor(deps: McpDeps) {
    this.#deps = deps;
  }

  gathers(intent: ActingCommand): boolean {
    return intent.name === "mcp" && !this.#topicOwner(intent.threadId);
  }

  async partFor(intent: ActingCommand): Promise<ProjectsPart | undefined> {
    return this.gathers(intent) ? { directories: this.#deps.links.directories() } : undefined;
  }

  /** `/mcp` as a reply to a session's message, or in a session's topic: that session's project. */
  claimText(intent: ActingText): Claim | undefined {
    if (!MCP_COMMAND.test(intent.text.trim()) || intent.from.chatId === undefined) return undefined;
    const replyTo = intent.replyTo === undefined ? undefined : { chatId: intent.from.chatId, messageId: intent.replyTo };
    if (replyTo && this.#deps.registry.inputFor(replyTo)) return undefined; // an awaited answer stays one
    const owner = (replyTo ? this.#deps.registry.ownerOf(replyTo) : undefined) ?? this.#topicOwner(intent.threadId);
    if (!owner || !this.#deps.links.linkFor(owner.directory)) return undefined;
    return () => this.#show(owner.directory, { owner, replyTo: intent.messageId });
  }

  /** `/mcp` sent in a session's topic (a command there, not a reply). */
  claimCommand(intent: ActingCommand): Claim | undefined {
    if (intent.name !== "mcp") return undefined;
    const owner = this.#topicOwner(intent.threadId);
    if (!owner || !this.#deps.links.linkFor(owner.directory)) return undefined;
    return () => this.#show(owner.directory, { owner, replyTo: intent.messageId });
  }

  unclaimed(intent: ActingCommand, received: readonly unknown[] | undefined): Promise<void> | undefined {
    if (intent.name !== "mcp") return undefined;
    return this.#answer(intent, received ?? []);
  }

  claimTap(intent: ActingTap): Claim | undefined {
    const data = decodeCallback(intent.data);
    if (data?.action === "mcpIn") {
      const directory = directoryWithKey(this.#deps.links.directories(), data.key);
      if (directory === undefined) return undefined;
      return async () => {
        await this.#deps.chat.answerCallback(intent.id);
        if (intent.messageId === undefined || intent.from.chatId === undefined) return;
        await this.#deps.posts.edit({ chatId: intent.from.chatId, messageId: intent.messageId }, renderPicked(directory, this.#deps.t));
        await this.#show(directory, { replyTo: intent.messageId });
      };
    }
    if (data?.action !== "mcpToggle") return undefined;
    const list = this.#lists.get(data.key);
    if (!list) return undefined;
    return () => this.#toggle(intent, data.key, list, data.question);
  }

  #topicOwner(threadId: number | undefined): MessageOwner | undefined {
    return threadId === undefined ? undefined : this.#deps.topics.ownerOf(threadId);
  }

  async #answer(intent: ActingCommand, received: readonly unknown[]): Promise<void> {
    const { t, chat, links } = this.#deps;
    const directories = gatheredDirectories(received);
    if (directories.length === 0) return chat.reply(escapeHtml(t.steer.noProject), intent.messageId);
    if (directories.length === 1 && links.linkFor(directories[0]!)) return this.#show(directories[0]!, { replyTo: intent.messageId });
    const picker = projectPicker(directories, t, { action: "mcpIn" });
    await chat.send(t.mcp.pick, { keyboard: picker.keyboard, replyTo: intent.messageId }, Priority.Answer, "could not answer /mcp");
  }

  async #show(directory: string, where: PostWhere): Promise<void> {
    const { t, posts } = this.#deps;
    const read = await this.#read(directory);
    if (typeof read === "string") return void (await posts.post({ text: read }, where));
    const key = newPromptKey();
    const list: McpList = { directory, servers: read, where };
    this.#lists.set(key, list);
    if (this.#lists.size > LIST_LIMIT) this.#lists.delete(this.#lists.keys().next().value!);
    const sent = await posts.post(renderMcpList(projectName(directory), read, key, t), where);
    if (sent) list.message = { chatId: sent.chatId, messageId: sent.messageId };
  }

  /** The servers, or what to say instead (no route, unreadable). */
  async #read(directory: string): Promise<McpServerState[] | Html> {
    const { t, links, log } = this.#deps;
    const desk = links.linkFor(directory)?.opencode.desk;
    if (!desk?.listMcp) return t.mcp.noRoute;
    try {
      return await desk.listMcp();
    } catch (error) {
      log.warn({ err: String(error) }, "could not read the MCP servers");
      return t.mcp.unreadable(escapeWithin(error instanceof Error ? error.message : String(error), WHY_LIMIT));
    }
  }

  async #toggle(intent: ActingTap, key: string, list: McpList, index: number): Promise<void> {
    const { t, chat, links, log, posts } = this.#deps;
    const server = list.servers[index];
    const desk = links.linkFor(list.directory)?.opencode.desk;
    if (!server || !desk?.setMcp || list.working) return chat.answerCallback(intent.id, t.mcp.stale);
    const connect = togglesOn(server);
    list.working = true;
    try {
      await chat.answerCallback(intent.id, connect ? t.mcp.connecting : t.mcp.disconnecting);
      const outcome = await desk.setMcp(server.name, connect);
      log.info({ server: server.name, connect, outcome }, "MCP server toggled from the phone");
      const name = escapeWithin(server.name, 80);
      const note = outcome.ok ? t.mcp.toggled(name, connect) : t.mcp.toggleFailed(name, escapeWithin(outcome.gone ? "not found" : outcome.error, WHY_LIMIT));
      const read = await this.#read(list.directory);
      if (typeof read !== "string") list.servers = read;
      const shown = renderMcpList(projectName(list.directory), list.servers, key, t, typeof read === "string" ? read : note);
      if (list.message) await posts.edit(list.message, shown);
      else await posts.post(shown, list.where);
    } finally {
      delete list.working;
    }
  }
}
