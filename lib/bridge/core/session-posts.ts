// The one way a session's message is posted or edited (its answers to a person's command or tap:
// the outbox's answer lane): a reply to the message that asked, in the session's topic when there
// is one, noted as the session's so that a reply to it reaches the session; or a document (a
// diff, a list) replying to such a message. Without an owner it goes where it is told (a
// project's message that belongs to no session). A message with a rich form (Bot API 10.1+) goes
// rich where the client has rich messages; a server without them ("method not found", logged once)
// or a rich message refused (a 400, logged) gets today's HTML instead, nothing sent twice.
// Failures are logged, never thrown.
import type { Logger } from "../../system/log.ts";
import type { MessageRef } from "../../registry/prompt.ts";
import type { MessageOwner, Registry } from "../../registry/registry.ts";
import type { Html } from "../../text/html.ts";
import type { TelegramApi } from "../../telegram/wire/api.ts";
import { Priority, type Outbox } from "../../telegram/wire/outbox.ts";
import type { InlineButton, RichHtml } from "../../telegram/wire/rendered-message.ts";
import { errorText } from "../../util/error-text.ts";
import { editMessageIn, inThread } from "./chat.ts";
import { editRichOrHtml, sendRichOrHtml } from "./rich-send.ts";
import { RecentIds } from "../../util/recent-ids.ts";
import type { SessionTopics } from "./topics.ts";

/** Rich messages remembered for their edits. */
const RICH_KEPT = 200;

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
  /** It went as a rich message (its `rich` form). */
  rich?: true;
}

/** What a message shows: its text and its buttons, and its rich form when it has one. */
export interface Shown {
  text: Html;
  keyboard?: InlineButton[][] | undefined;
  rich?: RichHtml | undefined;
}

export class SessionPosts {
  readonly #deps: SessionPostDeps;
  /** What the log calls these messages ("a git message"). */
  readonly #what: string;
  /** Messages posted rich ("chatId:messageId"), the latest RICH_KEPT: their edits are rich. */
  readonly #rich = new RecentIds<string>(RICH_KEPT);

  constructor(deps: SessionPostDeps, what: string) {
    this.#deps = deps;
    this.#what = what;
  }

  async post(shown: Shown, where: PostWhere): Promise<PostedMessage | undefined> {
    const { outbox, chatId, log, registry } = this.#deps;
    if (chatId === undefined) return undefined;
    const threadId = await this.#thread(where);
    const options = { keyboard: shown.keyboard ?? [], ...(where.replyTo !== undefined ? { replyTo: where.replyTo } : {}), ...inThread(threadId) };
    const sent = await outbox
      .send(chatId, () => () => sendRichOrHtml(this.#deps, chatId, shown, options, this.#what), Priority.Answer)
      .catch((error) => void log.warn({ err: errorText(error) }, `could not send ${this.#what}`));
    if (!sent) return undefined;
    const message = { chatId, messageId: sent.messageId };
    if (where.owner) registry.noteMessage(message, { sessionID: where.owner.sessionID, directory: where.owner.directory });
    if (sent.rich) this.#rich.add(`${chatId}:${sent.messageId}`);
    return { ...message, ...inThread(threadId), ...(sent.rich ? { rich: true as const } : {}) };
  }

  /** An edit keeps the message's kind: one posted rich is edited with its rich form (a caller editing it gives one). */
  async edit(message: MessageRef, shown: Shown): Promise<void> {
    const { outbox, log } = this.#deps;
    const rich = this.#rich.has(`${message.chatId}:${message.messageId}`);
    if (!rich)
      return editMessageIn(this.#deps, message, { text: shown.text, keyboard: shown.keyboard ?? [] }, Priority.Answer, `could not update ${this.#what}`);
    const full = { text: shown.text, rich: shown.rich, keyboard: shown.keyboard ?? [] };
    await outbox
      .edit(message.chatId, message.messageId, () => () => editRichOrHtml(this.#deps, { ...message, rich }, full), Priority.Answer)
      .catch((error) => void log.warn({ err: errorText(error) }, `could not update ${this.#what}`));
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
