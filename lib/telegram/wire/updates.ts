// Narrows a raw Telegram update (untrusted) to the few things Hermes acts on. Pure.
import { isRecord } from "../../util/is-record.ts";

export interface Sender {
  userId: number;
  chatId: number;
  chatType: string;
  /** How Telegram names the person (first and last name, else @username): the queue says who sent a message, the digest who decided. */
  name?: string;
}

/** Who tapped a button: Telegram leaves out the message (and so the chat) when it is too old. */
export interface TapSender {
  userId: number;
  chatId: number | undefined;
  chatType: string;
  /** How Telegram names the person (first and last name, else @username): the digest says who decided. */
  name?: string;
}

export type Intent =
  /**
   * `hasButtons`: whether the tapped message, as Telegram has it now, still shows buttons (known when the message came with the tap).
   * `replied`: the message the tapped message replies to, as Telegram includes it (a picker replies to the command it answers).
   */
  | { kind: "callback"; id: string; from: TapSender; messageId?: number; hasButtons?: boolean; data: string; replied?: { messageId: number; text: string } }
  /** `bot`: the @username a command names in groups ("/start@my_bot"), when it names one; `threadId`: the forum topic it was sent in. */
  | { kind: "command"; name: string; args: string; from: Sender; messageId: number; bot?: string; threadId?: number }
  /** `threadId`: the forum topic the message was posted in, if any. */
  | { kind: "text"; text: string; from: Sender; messageId: number; replyTo?: number; threadId?: number }
  /** A photo or file sent to the bot (`caption`: the text sent with it; `albumId`: Telegram's media_group_id). */
  | { kind: "attachment"; file: IncomingFile; caption?: string; albumId?: string; from: Sender; messageId: number; replyTo?: number; threadId?: number };

/**
 * A file as Telegram describes it, before anything is downloaded. `kind` "audio" is a voice note or
 * an audio file (transcribed); "other" is a file Hermes does not take (video, sticker…), named by
 * what Telegram calls it. Sizes are in bytes.
 */
export interface IncomingFile {
  kind: "photo" | "document" | "audio" | "other";
  fileId: string;
  /** Telegram's own word for it ("photo", "document", "voice", "audio", "video"…). */
  type: string;
  size?: number;
  mime?: string;
  name?: string;
}

/** Voice notes and audio files: transcribed into prompts. */
const AUDIO_MEDIA = ["voice", "audio"] as const;
/** Media Hermes recognises only to say it does not take them. */
const OTHER_MEDIA = ["video", "animation", "video_note", "sticker"] as const;

/** An inline keyboard with at least one button (Telegram leaves reply_markup out once it is gone). */
function hasInlineButtons(markup: unknown): boolean {
  const keyboard = isRecord(markup) ? markup.inline_keyboard : undefined;
  return Array.isArray(keyboard) && keyboard.some((row) => Array.isArray(row) && row.length > 0);
}

export function parseUpdate(update: unknown): Intent | undefined {
  if (!isRecord(update)) return undefined;
  const callback = update.callback_query;
  if (isRecord(callback)) {
    const userId = isRecord(callback.from) ? callback.from.id : undefined;
    const message = isRecord(callback.message) ? callback.message : undefined;
    const chat = message && isRecord(message.chat) ? message.chat : undefined;
    if (typeof callback.id !== "string" || typeof userId !== "number") return undefined;
    const from: TapSender = { userId, chatId: typeof chat?.id === "number" ? chat.id : undefined, chatType: typeof chat?.type === "string" ? chat.type : "" };
    const name = nameOf(callback.from);
    if (name) from.name = name;
    const intent: Intent = { kind: "callback", id: callback.id, from, data: typeof callback.data === "string" ? callback.data : "" };
    if (typeof message?.message_id === "number") {
      intent.messageId = message.message_id;
      intent.hasButtons = hasInlineButtons(message.reply_markup);
    }
    const replied = message && isRecord(message.reply_to_message) ? message.reply_to_message : undefined;
    if (typeof replied?.message_id === "number" && typeof replied.text === "string") intent.replied = { messageId: replied.message_id, text: replied.text };
    return intent;
  }
  const message = update.message;
  if (!isRecord(message) || !isRecord(message.from) || !isRecord(message.chat)) return undefined;
  const { from: user, chat } = message;
  if (typeof user.id !== "number" || typeof chat.id !== "number" || typeof message.message_id !== "number") return undefined;
  if (user.is_bot === true) return undefined;
  const from: Sender = { userId: user.id, chatId: chat.id, chatType: typeof chat.type === "string" ? chat.type : "" };
  const name = nameOf(user);
  if (name) from.name = name;
  const text = typeof message.text === "string" ? message.text : undefined;
  const replyTo =
    isRecord(message.reply_to_message) && typeof message.reply_to_message.message_id === "number" ? message.reply_to_message.message_id : undefined;
  if (text === undefined) return parseAttachment(message, message.message_id, from, replyTo);
  // A reply is an answer even when it starts with "/" (a path like /tmp): only plain messages are commands.
  const command = replyTo === undefined ? parseCommand(text) : undefined;
  const topic = message.is_topic_message === true && typeof message.message_thread_id === "number" ? { threadId: message.message_thread_id } : {};
  if (command) return { kind: "command", ...command, from, messageId: message.message_id, ...topic };
  const intent: Intent = { kind: "text", text, from, messageId: message.message_id };
  if (replyTo !== undefined) intent.replyTo = replyTo;
  if (topic.threadId !== undefined) intent.threadId = topic.threadId;
  return intent;
}

/** "Ana Lima", else "@ana": how the person is named to others (untrusted: escaped where shown). */
function nameOf(user: unknown): string | undefined {
  if (!isRecord(user)) return undefined;
  const full = [user.first_name, user.last_name].filter((part): part is string => typeof part === "string" && part.trim() !== "").join(" ");
  if (full) return full.slice(0, 64);
  return typeof user.username === "string" && user.username !== "" ? `@${user.username.slice(0, 64)}` : undefined;
}

/** "/name@bot args": the command's name (lower case), its arguments (trimmed), and the bot it names, if any. */
export function parseCommand(text: string): { name: string; args: string; bot?: string } | undefined {
  const match = /^\/([a-z0-9_]{1,32})(?:@([A-Za-z0-9_]+))?(?:\s+([\s\S]*))?$/i.exec(text);
  if (!match) return undefined;
  return { name: match[1]!.toLowerCase(), args: (match[3] ?? "").trim(), ...(match[2] ? { bot: match[2] } : {}) };
}

function parseAttachment(message: Record<string, unknown>, messageId: number, from: Sender, replyTo: number | undefined): Intent | undefined {
  const file = incomingFile(message);
  if (!file) return undefined;
  const intent: Intent = { kind: "attachment", file, from, messageId };
  if (typeof message.caption === "string" && message.caption.trim() !== "") intent.caption = message.caption;
  if (typeof message.media_group_id === "string" && message.media_group_id !== "") intent.albumId = message.media_group_id;
  if (replyTo !== undefined) intent.replyTo = replyTo;
  if (message.is_topic_message === true && typeof message.message_thread_id === "number") intent.threadId = message.message_thread_id;
  return intent;
}

function incomingFile(message: Record<string, unknown>): IncomingFile | undefined {
  // A photo comes in several sizes, smallest first: the last one is the original.
  if (Array.isArray(message.photo)) {
    const sizes = message.photo.filter((size: unknown) => isRecord(size) && typeof size.file_id === "string");
    const largest: unknown = sizes[sizes.length - 1];
    return isRecord(largest) ? fileOf("photo", "photo", largest) : undefined;
  }
  if (isRecord(message.document)) return fileOf("document", "document", message.document);
  for (const type of AUDIO_MEDIA) {
    const media = message[type];
    if (isRecord(media)) return fileOf("audio", type, media);
  }
  for (const type of OTHER_MEDIA) {
    const media = message[type];
    if (isRecord(media)) return fileOf("other", type, media);
  }
  return undefined;
}

function fileOf(kind: IncomingFile["kind"], type: string, raw: Record<string, unknown>): IncomingFile | undefined {
  if (typeof raw.file_id !== "string" || raw.file_id === "") return undefined;
  const file: IncomingFile = { kind, type, fileId: raw.file_id };
  if (typeof raw.file_size === "number" && Number.isFinite(raw.file_size) && raw.file_size >= 0) file.size = raw.file_size;
  if (typeof raw.mime_type === "string") file.mime = raw.mime_type;
  if (typeof raw.file_name === "string") file.name = raw.file_name;
  return file;
}
