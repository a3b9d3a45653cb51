import type { SentMessage, TgUser } from "./types.ts";

/**
 * Chats and messages of the fake. Message ids are one sequence per chat shared by the bot and
 * the human, as in a real private chat. Bot messages are SentMessage objects that are updated
 * in place (edits, deletion), so a reference a test holds always shows the current state.
 */
export type ChatType = "private" | "group" | "supergroup";

export interface HumanMessage {
  chatId: number;
  messageId: number;
  from: TgUser;
  text: string;
  date: number;
  deleted: boolean;
  /** The message it replies to. */
  replyTo?: number;
}

export class ChatStore {
  readonly botMessages: SentMessage[] = [];
  private readonly humanMessages: HumanMessage[] = [];
  private readonly chats = new Map<number, Record<string, unknown>>();
  private readonly lastIds = new Map<number, number>();

  constructor(readonly bot: TgUser) {}

  nextMessageId(chatId: number): number {
    const id = (this.lastIds.get(chatId) ?? 0) + 1;
    this.lastIds.set(chatId, id);
    return id;
  }

  /** Remembers the chat shape the first time the human writes in it. */
  registerChat(chatId: number, type: ChatType, user: TgUser): void {
    if (this.chats.has(chatId)) return;
    this.chats.set(
      chatId,
      type === "private"
        ? { id: chatId, type, first_name: user.first_name, ...(user.username ? { username: user.username } : {}) }
        : { id: chatId, type, title: "Test Group" },
    );
  }

  chat(chatId: number): Record<string, unknown> {
    return (
      this.chats.get(chatId) ?? (chatId > 0 ? { id: chatId, type: "private", first_name: "Owner" } : { id: chatId, type: "supergroup", title: "Test Group" })
    );
  }

  findBotMessage(chatId: number, messageId: number): SentMessage | undefined {
    return this.botMessages.find((m) => m.chatId === chatId && m.messageId === messageId);
  }

  findHumanMessage(chatId: number, messageId: number): HumanMessage | undefined {
    return this.humanMessages.find((m) => m.chatId === chatId && m.messageId === messageId);
  }

  /** What the human sent, in order (the chat page shows it). */
  humans(): readonly HumanMessage[] {
    return this.humanMessages;
  }

  addHuman(message: HumanMessage): void {
    this.humanMessages.push(message);
  }

  /** Bot API `Message` object for a bot message, as Telegram returns or embeds it. */
  /** As Telegram gives it (in a callback query too): with the message it replies to, one level deep. */
  botMessageObject(m: SentMessage, nested = false): Record<string, unknown> {
    const date = Math.floor((m.history[0]?.at ?? Date.now()) / 1000);
    const obj: Record<string, unknown> = { message_id: m.messageId, from: this.bot, chat: this.chat(m.chatId), date };
    if (m.photo) {
      obj.photo = [{ file_id: `photo-${m.chatId}-${m.messageId}`, file_unique_id: `p${m.messageId}`, file_size: m.photo.bytes, width: 1, height: 1 }];
      if (m.photo.caption !== undefined) obj.caption = m.photo.caption;
    } else if (m.document) {
      obj.document = { file_name: m.document.filename, file_size: m.document.bytes, file_id: `doc-${m.chatId}-${m.messageId}` };
      if (m.document.caption !== undefined) obj.caption = m.document.caption;
    } else if (m.rich) {
      // As Telegram gives a rich message back: its blocks, never the source it was sent as.
      obj.rich_message = { blocks: m.rich.blocks, is_rtl: false };
    } else {
      obj.text = m.text;
    }
    if (m.history.length > 1) obj.edit_date = Math.floor(m.history[m.history.length - 1]!.at / 1000);
    if (m.replyMarkup) obj.reply_markup = m.replyMarkup;
    const target = !nested && m.replyToMessageId !== undefined ? this.replyTarget(m.chatId, m.replyToMessageId) : undefined;
    if (target) obj.reply_to_message = target;
    return obj;
  }

  humanMessageObject(m: HumanMessage): Record<string, unknown> {
    return { message_id: m.messageId, from: m.from, chat: this.chat(m.chatId), date: m.date, text: m.text };
  }

  /** The `reply_to_message` object for a message id in a chat, bot's or human's. */
  replyTarget(chatId: number, messageId: number): Record<string, unknown> | undefined {
    const bot = this.findBotMessage(chatId, messageId);
    if (bot) return this.botMessageObject(bot, true);
    const human = this.findHumanMessage(chatId, messageId);
    return human ? this.humanMessageObject(human) : undefined;
  }
}
