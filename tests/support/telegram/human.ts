import type { ChatStore, ChatType } from "./chat-store.ts";
import type { SentMessage, TgUser } from "./types.ts";

/** Builds the updates a human produces: text messages and inline-button taps. */

let callbackCounter = 0;

export function newCallbackQueryId(): string {
  callbackCounter++;
  return `43${Date.now()}${String(callbackCounter).padStart(5, "0")}`;
}

export function callbackQueryUpdate(store: ChatStore, m: SentMessage, data: string | undefined, from: TgUser, id: string): any {
  return {
    callback_query: {
      id,
      from,
      chat_instance: `-${Math.abs(m.chatId) * 7919 + 12345}`,
      ...(data !== undefined ? { data } : {}),
      message: store.botMessageObject(m),
    },
  };
}

export function commandEntities(text: string): Array<{ type: "bot_command"; offset: number; length: number }> {
  const entities: Array<{ type: "bot_command"; offset: number; length: number }> = [];
  for (const match of text.matchAll(/(^|\s)(\/[A-Za-z0-9_]{1,32}(?:@[A-Za-z0-9_]+)?)/g)) {
    const offset = match.index + match[1]!.length;
    entities.push({ type: "bot_command", offset, length: match[2]!.length });
  }
  return entities;
}

export function messageUpdate(
  store: ChatStore,
  chatId: number,
  text: string,
  opts: { replyTo?: number; from: TgUser; chatType: ChatType; threadId?: number },
): { update: any; messageId: number } {
  store.registerChat(chatId, opts.chatType, opts.from);
  const messageId = store.nextMessageId(chatId);
  const date = Math.floor(Date.now() / 1000);
  store.addHuman({ chatId, messageId, from: opts.from, text, date, deleted: false, ...(opts.replyTo !== undefined ? { replyTo: opts.replyTo } : {}) });
  const message: Record<string, unknown> = { message_id: messageId, from: opts.from, chat: store.chat(chatId), date, text };
  if (opts.threadId !== undefined) Object.assign(message, { message_thread_id: opts.threadId, is_topic_message: true });
  const entities = commandEntities(text);
  if (entities.length > 0) message.entities = entities;
  if (opts.replyTo !== undefined) {
    const target = store.replyTarget(chatId, opts.replyTo);
    if (!target) throw new Error(`sendText: no message ${opts.replyTo} in chat ${chatId} to reply to`);
    message.reply_to_message = target;
  }
  return { update: { message }, messageId };
}
