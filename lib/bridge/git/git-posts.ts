// Where git's messages go: a reply to the tapped message, in the session's topic when there is
// one, noted as the session's (a reply to it reaches the session); edits of the same; the
// uncommitted diff as a `changes.diff` document. Sends and edits go through the outbox in the
// answers' lane (they answer a person's command or tap).
import { errorText } from "../../util/error-text.ts";
import type { Logger } from "../../system/log.ts";
import type { MessageRef } from "../../registry/prompt.ts";
import type { MessageOwner, Registry } from "../../registry/registry.ts";
import type { TelegramApi } from "../../telegram/wire/api.ts";
import { Priority, type Outbox } from "../../telegram/wire/outbox.ts";
import type { RenderedMessage } from "../../telegram/wire/rendered-message.ts";
import { CHANGES_FILE } from "../../telegram/render/render-changes.ts";
import type { Html } from "../../text/html.ts";
import { editMessageIn, inThread } from "../core/chat.ts";
import type { SessionTopics } from "../core/topics.ts";

export interface GitPostDeps {
  telegram: TelegramApi;
  outbox: Outbox;
  registry: Registry;
  topics: Pick<SessionTopics, "threadOf">;
  log: Logger;
  chatId: number | undefined;
}

/** Where a git message goes: in reply to `replyTo`, in the session's topic (owner given) or in `threadId`. */
export interface GitWhere {
  owner?: MessageOwner | undefined;
  replyTo?: number | undefined;
  threadId?: number | undefined;
}

export class GitPosts {
  readonly #deps: GitPostDeps;

  constructor(deps: GitPostDeps) {
    this.#deps = deps;
  }

  /** Posts in reply to `replyTo`, in the session's topic (owner given) or in `threadId`. */
  async post(rendered: RenderedMessage, where: GitWhere): Promise<MessageRef | undefined> {
    const { outbox, telegram, chatId, log, registry } = this.#deps;
    if (chatId === undefined) return undefined;
    const threadId = await this.#thread(where);
    const options = { keyboard: rendered.keyboard, ...(where.replyTo !== undefined ? { replyTo: where.replyTo } : {}), ...inThread(threadId) };
    const sent = await outbox
      .send(chatId, () => () => telegram.sendMessage(chatId, rendered.text, options), Priority.Answer)
      .catch((error) => void log.warn({ err: errorText(error) }, "could not send a git message"));
    if (!sent) return undefined;
    const message = { chatId, messageId: sent.messageId };
    if (where.owner) registry.noteMessage(message, where.owner);
    return message;
  }

  #thread(where: GitWhere): Promise<number | undefined> {
    return where.owner ? this.#deps.topics.threadOf(where.owner.sessionID, where.owner.directory) : Promise.resolve(where.threadId);
  }

  async edit(message: MessageRef, rendered: RenderedMessage): Promise<void> {
    await editMessageIn(this.#deps, message, rendered, Priority.Answer, "could not update a git message");
  }

  /** The whole uncommitted diff as a file, replying to the summary. */
  async diffFile(diff: string, caption: Html, replyTo: number, where: GitWhere): Promise<void> {
    const { outbox, telegram, chatId, log } = this.#deps;
    if (chatId === undefined) return;
    const options = { caption, replyTo, ...inThread(await this.#thread(where)) };
    await outbox
      .send(chatId, () => () => telegram.sendDocument(chatId, CHANGES_FILE, diff, options), Priority.Answer)
      .catch((error) => void log.warn({ err: errorText(error) }, "could not send the uncommitted diff"));
  }
}
