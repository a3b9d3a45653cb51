// Forum topics (optional): in a supergroup with topics, each root session gets its own topic,
// named after its title and created on first use. Sub-agent sessions post in their root's topic.
import { projectName } from "../../telegram/render/render-context.ts";
import type { Logger } from "../../system/log.ts";
import type { MessageOwner, Registry } from "../../registry/registry.ts";
import type { TelegramApi } from "../../telegram/wire/api.ts";
import { cutText, TOPIC_NAME_LIMIT } from "../../text/html.ts";
import { Priority, type Outbox } from "../../telegram/wire/outbox.ts";
import { errorText } from "../../util/error-text.ts";

export class SessionTopics {
  readonly #threads = new Map<string, Promise<number | undefined>>();
  readonly #owners = new Map<number, MessageOwner>();

  constructor(
    readonly enabled: boolean,
    private readonly deps: { telegram: TelegramApi; outbox: Outbox; registry: Registry; chatId: number | undefined; log: Logger },
  ) {}

  /** The topic a session's messages go to; undefined without topics (or if one can't be made). */
  threadOf(sessionID: string, directory: string): Promise<number | undefined> {
    if (!this.enabled) return Promise.resolve(undefined);
    const root = this.deps.registry.sessions.rootOf(sessionID);
    let thread = this.#threads.get(root);
    if (!thread) {
      thread = this.#create(root, directory);
      this.#threads.set(root, thread);
    }
    return thread;
  }

  /** The session a topic belongs to: a plain message there is meant for it. */
  ownerOf(threadId: number): MessageOwner | undefined {
    return this.#owners.get(threadId);
  }

  /** Follows a session's new title (OpenCode names sessions after their first prompt). */
  rename(sessionID: string, title: string): void {
    const thread = this.#threads.get(sessionID);
    if (!thread) return;
    void thread.then((threadId) => {
      if (threadId === undefined) return;
      const { outbox, telegram, chatId } = this.deps;
      if (chatId === undefined) return;
      return outbox.chore(chatId, () => telegram.renameTopic(chatId, threadId, cutText(title, TOPIC_NAME_LIMIT))).catch(() => undefined);
    });
  }

  async #create(root: string, directory: string): Promise<number | undefined> {
    const { outbox, telegram, chatId, registry, log } = this.deps;
    if (chatId === undefined) return undefined;
    const name = cutText(registry.sessions.title(root) ?? `${projectName(directory)} · ${root.slice(-6)}`, TOPIC_NAME_LIMIT);
    try {
      const threadId = await outbox.send(chatId, () => () => telegram.createTopic(chatId, name), Priority.Prompt);
      if (threadId !== undefined) this.#owners.set(threadId, { sessionID: root, directory });
      return threadId;
    } catch (error) {
      // Not a forum, or no right to manage topics: the main chat still works.
      log.warn({ err: errorText(error) }, "could not create a forum topic; posting in the main chat");
      return undefined;
    }
  }
}
