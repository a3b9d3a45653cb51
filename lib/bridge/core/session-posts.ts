// The one way a session's message is posted or edited (its answers to a person's command or tap:
// the outbox's answer lane): a reply to the message that asked, in the session's topic when there
// is one, noted as the session's so that a reply to it reaches the session; or a document (a
// diff, a list) replying to such a message. Without an owner it goes where it is told (a
// project's message that belongs to no session). Failures are logged, never thrown.
import type { Logger } from "../../system/log.ts";
import type { MessageRef } from "../../registry/prompt.ts";
import type { MessageOwner, Registry } from "../../registry/registry.ts";
import type { Html } from "../../text/html.ts";
import type { TelegramApi } from "../../telegram/wire/api.ts";
import { Priority, type Outbox } from "../../telegram/wire/outbox.ts";
import type { InlineButton } from "../../telegram/wire/rendered-message.ts";
import { errorText } from "../../util/error-text.ts";
import { editMessageIn, inThread } from "./chat.ts";
import type { SessionTopics } from "./topics.ts";

export interface SessionPostDeps {
  telegram: TelegramApi;
  outbox: Outbox;
  registry: Registry;
  topics: Pick<SessionTopics, "threadOf">;
  log: Logger;
  chatId: number | undefined;
}

/** Where a message goes: in reply to `replyTo`, in the session's topic (owner given) or in `threadId`. */
export interface PostWhere {
  owner?: MessageOwner | undefined;
  replyTo?: number | undefined;
  threadId?: number | undefined;
}

export interface PostedMessage extends MessageRef {
  threadId?: number;
}

/** What a message shows: its text and its buttons. */
export interface Shown {
  text: Html;
  keyboard?: InlineButton[][] | undefined;
}

export class SessionPosts {
  readonly #deps: SessionPostDeps;
  /** What the log calls these messages ("a git message"). */
  readonly #what: string;

  constructor(deps: SessionPostDeps, what: string) {
    this.#deps = deps;
    this.#what = what;
  }

  async post(shown: Shown, where: PostWhere): Promise<PostedMessage | undefined> {
    const { outbox, telegram, chatId, log, registry } = this.#deps;
    if (chatId === undefined) return undefined;
    const threadId = await this.#thread(where);
    const options = { keyboard: shown.keyboard ?? [], ...(where.replyTo !== undefined ? { replyTo: where.replyTo } : {}), ...inThread(threadId) };
    const sent = await outbox
      .send(chatId, () => () => telegram.sendMessage(chatId, shown.text, options), Priority.Answer)
      .catch((error) => void log.warn({ err: errorText(error) }, `could not send ${this.#what}`));
    if (!sent) return undefined;
    const message = { chatId, messageId: sent.messageId };
    if (where.owner) registry.noteMessage(message, { sessionID: where.owner.sessionID, directory: where.owner.directory });
    return { ...message, ...inThread(threadId) };
  }

  async edit(message: MessageRef, shown: Shown): Promise<void> {
    await editMessageIn(this.#deps, message, { text: shown.text, keyboard: shown.keyboard ?? [] }, Priority.Answer, `could not update ${this.#what}`);
  }

  /** A file replying to `where.replyTo` (a message posted above), or on its own; the message sent, undefined when it was not. */
  async document(name: string, content: string, caption: Html, where: PostWhere): Promise<PostedMessage | undefined> {
    const { outbox, telegram, chatId, log } = this.#deps;
    if (chatId === undefined) return undefined;
    const threadId = await this.#thread(where);
    const options = { caption, ...(where.replyTo !== undefined ? { replyTo: where.replyTo } : {}), ...inThread(threadId) };
    const sent = await outbox
      .send(chatId, () => () => telegram.sendDocument(chatId, name, content, options), Priority.Answer)
      .catch((error) => void log.warn({ err: errorText(error) }, `could not send ${name}`));
    return sent ? { chatId, messageId: sent.messageId, ...inThread(threadId) } : undefined;
  }

  #thread(where: PostWhere): Promise<number | undefined> {
    return where.owner ? this.#deps.topics.threadOf(where.owner.sessionID, where.owner.directory) : Promise.resolve(where.threadId);
  }
}
