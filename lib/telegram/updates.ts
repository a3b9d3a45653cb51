// Narrows a raw Telegram update (untrusted) to the few things Hermes acts on. Pure.

export interface Sender {
  userId: number;
  chatId: number;
  chatType: string;
}

export type Intent =
  | { kind: "callback"; id: string; from: Sender; messageId?: number; data: string }
  /** `bot`: the @username a command names in groups ("/start@my_bot"), when it names one. */
  | { kind: "command"; name: string; args: string; from: Sender; messageId: number; bot?: string }
  /** `threadId`: the forum topic the message was posted in, if any. */
  | { kind: "text"; text: string; from: Sender; messageId: number; replyTo?: number; threadId?: number };

export function parseUpdate(update: unknown): Intent | undefined {
  if (!isObject(update)) return undefined;
  const callback = update.callback_query;
  if (isObject(callback)) {
    const userId = isObject(callback.from) ? callback.from.id : undefined;
    const message = isObject(callback.message) ? callback.message : undefined;
    const chat = message && isObject(message.chat) ? message.chat : undefined;
    if (typeof callback.id !== "string" || typeof userId !== "number") return undefined;
    const from: Sender = { userId, chatId: typeof chat?.id === "number" ? chat.id : NaN, chatType: typeof chat?.type === "string" ? chat.type : "" };
    const intent: Intent = { kind: "callback", id: callback.id, from, data: typeof callback.data === "string" ? callback.data : "" };
    if (typeof message?.message_id === "number") intent.messageId = message.message_id;
    return intent;
  }
  const message = update.message;
  if (!isObject(message) || !isObject(message.from) || !isObject(message.chat)) return undefined;
  const { from: user, chat } = message;
  if (typeof user.id !== "number" || typeof chat.id !== "number" || typeof message.message_id !== "number") return undefined;
  if (user.is_bot === true) return undefined;
  const from: Sender = { userId: user.id, chatId: chat.id, chatType: typeof chat.type === "string" ? chat.type : "" };
  const text = typeof message.text === "string" ? message.text : undefined;
  if (text === undefined) return undefined;
  const replyTo = isObject(message.reply_to_message) && typeof message.reply_to_message.message_id === "number" ? message.reply_to_message.message_id : undefined;
  // A reply is an answer even when it starts with "/" (a path like /tmp): only plain messages are commands.
  const command = replyTo === undefined ? /^\/([a-z0-9_]{1,32})(?:@([A-Za-z0-9_]+))?(?:\s+([\s\S]*))?$/i.exec(text) : null;
  if (command) {
    const intent: Intent = { kind: "command", name: command[1]!.toLowerCase(), args: (command[3] ?? "").trim(), from, messageId: message.message_id };
    if (command[2]) intent.bot = command[2];
    return intent;
  }
  const intent: Intent = { kind: "text", text, from, messageId: message.message_id };
  if (replyTo !== undefined) intent.replyTo = replyTo;
  if (message.is_topic_message === true && typeof message.message_thread_id === "number") intent.threadId = message.message_thread_id;
  return intent;
}

function isObject(value: unknown): value is Record<string, any> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
