import type { ChatStore, ChatType } from "./chat-store.ts";
import type { MethodHandler } from "./context.ts";
import { badRequest, type TgUser } from "./types.ts";

/**
 * Files a human sends to the bot (photos, documents, voice notes, audio files), getFile, and the download route
 * `GET /file/bot<token>/<file_path>`. As on api.telegram.org, getFile refuses files over 20 MB
 * ("file is too big") and a file_path is valid for the download only after getFile gave it out.
 */
export const BOT_DOWNLOAD_LIMIT = 20 * 1024 * 1024;

export interface StoredFile {
  fileId: string;
  bytes: Buffer;
  path: string;
  /** The size Telegram reports (the real size unless a test fakes a huge file). */
  size: number;
  /** getFile gave the path out: the download route serves it. */
  issued: boolean;
}

export interface FileStore {
  byId: Map<string, StoredFile>;
  /** Every file_path downloaded through the file route. */
  downloads: string[];
}

export function newFileStore(): FileStore {
  return { byId: new Map(), downloads: [] };
}

export interface HumanFile {
  /** `voice`: a voice note recorded in Telegram (OGG/Opus); `audio`: a music or audio file. */
  kind: "photo" | "document" | "voice" | "audio";
  bytes: Buffer | Uint8Array;
  fileName?: string;
  mime?: string;
  caption?: string;
  /** Report this size instead of the real one (a huge file without the bytes). */
  reportedSize?: number;
  replyTo?: number;
  threadId?: number;
  /** Seconds, for a voice note or audio (Telegram always says). */
  duration?: number;
  /** media_group_id: items of one album share it. */
  albumId?: string;
  from: TgUser;
  chatType: ChatType;
}

let fileCounter = 0;

/** A message with a photo (in two sizes, as Telegram sends them), a document, a voice note or an audio file. */
export function fileMessageUpdate(store: ChatStore, files: FileStore, chatId: number, file: HumanFile): { update: any; messageId: number; fileId: string } {
  store.registerChat(chatId, file.chatType, file.from);
  const messageId = store.nextMessageId(chatId);
  const date = Math.floor(Date.now() / 1000);
  store.addHuman({ chatId, messageId, from: file.from, text: file.caption ?? "", date, deleted: false });
  const fileId = `AgAC${++fileCounter}${Date.now().toString(36)}file`;
  const bytes = Buffer.from(file.bytes);
  const size = file.reportedSize ?? bytes.length;
  const folder = { photo: "photos", document: "documents", voice: "voice", audio: "music" }[file.kind];
  files.byId.set(fileId, { fileId, bytes, path: `${folder}/file_${fileCounter}${extension(file)}`, size, issued: false });
  const message: Record<string, unknown> = { message_id: messageId, from: file.from, chat: store.chat(chatId), date };
  if (file.kind === "photo") {
    const thumbId = `${fileId}-thumb`;
    files.byId.set(thumbId, {
      fileId: thumbId,
      bytes: bytes.subarray(0, Math.min(bytes.length, 64)),
      path: `photos/thumb_${fileCounter}.jpg`,
      size: Math.min(bytes.length, 64),
      issued: false,
    });
    message.photo = [
      { file_id: thumbId, file_unique_id: `u${thumbId}`, width: 90, height: 60, file_size: Math.min(bytes.length, 64) },
      { file_id: fileId, file_unique_id: `u${fileId}`, width: 1280, height: 853, file_size: size },
    ];
  } else if (file.kind === "voice") {
    // Telegram's voice notes carry no name; their type is audio/ogg unless the sender said otherwise.
    message.voice = { file_id: fileId, file_unique_id: `u${fileId}`, duration: file.duration ?? 1, mime_type: file.mime ?? "audio/ogg", file_size: size };
  } else if (file.kind === "audio") {
    message.audio = {
      file_id: fileId,
      file_unique_id: `u${fileId}`,
      duration: file.duration ?? 1,
      file_size: size,
      ...(file.fileName !== undefined ? { file_name: file.fileName } : {}),
      ...(file.mime !== undefined ? { mime_type: file.mime } : {}),
    };
  } else {
    message.document = {
      file_id: fileId,
      file_unique_id: `u${fileId}`,
      file_size: size,
      ...(file.fileName !== undefined ? { file_name: file.fileName } : {}),
      ...(file.mime !== undefined ? { mime_type: file.mime } : {}),
    };
  }
  if (file.caption !== undefined) message.caption = file.caption;
  if (file.albumId !== undefined) message.media_group_id = file.albumId;
  if (file.threadId !== undefined) Object.assign(message, { message_thread_id: file.threadId, is_topic_message: true });
  if (file.replyTo !== undefined) {
    const target = store.replyTarget(chatId, file.replyTo);
    if (!target) throw new Error(`sendFile: no message ${file.replyTo} in chat ${chatId} to reply to`);
    message.reply_to_message = target;
  }
  return { update: { message }, messageId, fileId };
}

function extension(file: HumanFile): string {
  if (file.kind === "photo") return ".jpg";
  if (file.kind === "voice") return ".oga";
  const dot = file.fileName?.lastIndexOf(".") ?? -1;
  return dot > 0 ? file.fileName!.slice(dot).replace(/[^A-Za-z0-9.]/g, "") : "";
}

export function getFileMethod(files: FileStore): MethodHandler {
  return ({ payload }) => {
    const stored = files.byId.get(String(payload.file_id ?? ""));
    if (!stored) throw badRequest("invalid file_id");
    if (stored.size > BOT_DOWNLOAD_LIMIT) throw badRequest("file is too big");
    stored.issued = true;
    return { file_id: stored.fileId, file_unique_id: `u${stored.fileId}`, file_size: stored.size, file_path: stored.path };
  };
}

/** The bytes for a download path, if getFile gave it out. */
export function downloadable(files: FileStore, path: string): Buffer | undefined {
  for (const stored of files.byId.values()) if (stored.path === path && stored.issued) return stored.bytes;
  return undefined;
}
