// The Telegram calls Hermes makes, behind a small interface so tests can swap in fakes.
// Each is one Bot API method called as plain JSON with the runtime's own fetch (bot-api-call.ts);
// sendDocument is a multipart upload (send-document.ts). No Bot API library is loaded: telegraf,
// which shaped these payloads before, kept about 3 MB more of OpenCode's memory (docs/performance.md).
import { CALLBACK_ANSWER_LIMIT, CAPTION_LIMIT, cutHtml, cutText, type Html, PLACEHOLDER_LIMIT, TOPIC_NAME_LIMIT } from "../../text/html.ts";
import type { InlineButton } from "./rendered-message.ts";
import { richCalls } from "./rich-calls.ts";
import { ButtonStyles } from "./button-style.ts";
import { Reachability } from "./reachability.ts";
import { callBotApi } from "./bot-api-call.ts";
import type { DocumentUpload } from "./send-document.ts";
import type { ChunkedBytes } from "./upload-source.ts";
import type { RichHtml } from "../../rich/rich-html.ts";

export interface SendOptions {
  keyboard?: InlineButton[][];
  /** Ask the client to open a reply to this message (free-text answers). */
  forceReply?: { placeholder: string };
  replyTo?: number;
  silent?: boolean;
  /** The forum topic to post in (message_thread_id). */
  threadId?: number;
}

export interface TelegramApi {
  getUpdates(offset: number, timeoutSeconds: number, signal: AbortSignal): Promise<unknown[]>;
  /** `html`: Telegram HTML, and only Html (text/html.ts): a plain string does not compile. */
  sendMessage(chatId: number, html: Html, options?: SendOptions): Promise<{ messageId: number }>;
  /** Replaces text and keyboard; an empty keyboard removes the buttons. */
  editMessage(chatId: number, messageId: number, html: Html, keyboard: InlineButton[][]): Promise<void>;
  removeKeyboard(chatId: number, messageId: number): Promise<void>;
  /**
   * A rich message (sendRichMessage, Bot API 10.1+: blocks, tables, code with its language, up to
   * 32,768 characters), its keyboard and reply as sendMessage's. Absent when rich messages are off
   * (HERMES_RICH=off) or in a fake without them. Throws RichMessagesMissing when the Bot API
   * server has none (it answers "method not found"): nothing was sent, and from then on this client
   * throws it at once, without asking again, for the rest of the process.
   */
  sendRichMessage?(chatId: number, rich: RichHtml, options?: Omit<SendOptions, "forceReply">): Promise<{ messageId: number }>;
  /** Replaces a rich message's content and keyboard (editMessageText with `rich_message`; only a message sendRichMessage sent). */
  editRichMessage?(chatId: number, messageId: number, rich: RichHtml, keyboard: InlineButton[][]): Promise<void>;
  /**
   * A private chat's draft: an ephemeral preview of a message being written (sendMessageDraft, Bot
   * API 9.3+), replaced by each call with the same `draftId`; nothing stays in the chat. Groups refuse it (400).
   */
  sendDraft(chatId: number, draftId: number, html: Html, threadId?: number): Promise<void>;
  /**
   * A private chat's draft as a rich message (sendRichMessageDraft, Bot API 10.1+), as sendDraft's
   * otherwise. Absent where sendRichMessage is; throws RichMessagesMissing as it does (one latch for both).
   */
  sendRichDraft?(chatId: number, draftId: number, rich: RichHtml, threadId?: number): Promise<void>;
  deleteMessage(chatId: number, messageId: number): Promise<void>;
  /** Sends text as a file (a diff too long to show inline). */
  sendDocument(
    chatId: number,
    filename: string,
    content: string,
    options?: { caption?: Html; replyTo?: number; threadId?: number },
  ): Promise<{ messageId: number }>;
  /** Sends a file's bytes as a photo or a document (the agent's telegram_send_file tool). */
  sendFile(chatId: number, file: OutgoingFile, options?: UploadOptions): Promise<{ messageId: number }>;
  /** OGG/Opus audio as a voice message (a spoken answer, speech/). */
  sendVoice(chatId: number, ogg: Uint8Array, options?: UploadOptions): Promise<{ messageId: number }>;
  /** A forum topic in a supergroup with topics; resolves with its message_thread_id. */
  createTopic(chatId: number, name: string): Promise<number>;
  renameTopic(chatId: number, threadId: number, name: string): Promise<void>;
  answerCallback(callbackQueryId: string, text?: string, showAlert?: boolean): Promise<void>;
  /** A quiet receipt on the user's own message. */
  react(chatId: number, messageId: number, emoji: string): Promise<void>;
  getMe(): Promise<{ id: number; username?: string }>;
  /** Where a file sent to the bot can be downloaded (`path`), and its size if Telegram says. */
  getFile(fileId: string): Promise<{ path?: string; size?: number }>;
  /** Downloads a file getFile pointed to, into memory; throws FileTooBigError past `maxBytes`. */
  downloadFile(filePath: string, maxBytes: number): Promise<Uint8Array>;
  setCommands(commands: ReadonlyArray<{ command: string; description: string }>): Promise<void>;
  /** Whether Telegram answers, as these calls find it (the outbox sends what waits when it is back); absent in simple fakes. */
  readonly reachability?: Reachability;
}

/** A file the agent sends: shown as a picture (`photo`, see upload-kind.ts) or as a file. */
export interface OutgoingFile {
  as: "photo" | "document";
  filename: string;
  /** In memory, or read from disk a chunk at a time as it is uploaded (a file of the project: never held whole). */
  bytes: Uint8Array | ChunkedBytes;
  mime: string;
}

export interface UploadOptions {
  caption?: Html;
  replyTo?: number;
  threadId?: number;
  /** How long the upload may take (a large file takes longer). */
  timeoutMs?: number;
}

/** Telegram lets a bot download files of up to 20 MB (getFile). */
export const BOT_DOWNLOAD_LIMIT_BYTES = 20 * 1024 * 1024;
const DOWNLOAD_TIMEOUT_MS = 120_000;

/** A download stopped because the file is larger than allowed. */
export class FileTooBigError extends Error {
  constructor(readonly limit: number) {
    super(`the file is larger than ${limit} bytes`);
    this.name = "FileTooBigError";
  }
}

export { RichMessagesMissing } from "./rich-calls.ts";

/** What a Bot API server older than a method answers (tdlib/telegram-bot-api: 404 "Not Found: method not found"). */
function methodMissing(error: unknown): boolean {
  return error instanceof TelegramApiError && (error.code === 404 || /method not found/i.test(error.message));
}

/** A failed Bot API call, normalised: `code` 0 means the request never got an answer. */
export class TelegramApiError extends Error {
  readonly code: number;
  readonly retryAfterSeconds?: number;

  constructor(code: number, description: string, retryAfterSeconds?: number) {
    super(code ? `Telegram ${code}: ${description}` : `Telegram unreachable: ${description}`);
    this.name = "TelegramApiError";
    this.code = code;
    if (retryAfterSeconds !== undefined) this.retryAfterSeconds = retryAfterSeconds;
  }

  /** Edits that change nothing are not failures. */
  get isNotModified(): boolean {
    return this.code === 400 && /message is not modified/i.test(this.message);
  }

  /** Telegram could not read the message's HTML ("can't parse entities"). */
  get isParseError(): boolean {
    return this.code === 400 && /can't parse entities/i.test(this.message);
  }

  get isMessageGone(): boolean {
    return this.code === 400 && /message to (edit|delete) not found|message can't be (edited|deleted)/i.test(this.message);
  }

  /** Worth trying again later: flood control, server trouble, or no answer at all. */
  get isTransient(): boolean {
    return this.code === 0 || this.code === 429 || this.code >= 500;
  }
}

export interface TelegramApiOptions {
  /** HERMES_RICH: false leaves sendRichMessage out (today's HTML everywhere). Default true. */
  rich?: boolean;
}

export function createTelegramApi(token: string, apiRoot: string, settings: TelegramApiOptions = {}): TelegramApi {
  /** One Bot API method; a failure (an answer with ok: false, or none) becomes a TelegramApiError. */
  const reachability = new Reachability();
  const call = async <T>(method: string, payload: object, signal?: AbortSignal): Promise<T> => {
    try {
      const answer = await callBotApi(token, apiRoot, method, payload, signal);
      if (!answer.ok) throw new TelegramApiError(answer.code, answer.description, answer.retryAfterSeconds);
      reachability.answered();
      return answer.result as T;
    } catch (error) {
      const normalised = normaliseError(error);
      reachability.failed(normalised.code);
      throw normalised;
    }
  };
  const markup = (keyboard: InlineButton[][]) => ({ inline_keyboard: keyboard });
  /** A multipart upload (sendDocument, sendPhoto); it loads with the first file sent (a waiting OpenCode sends none). */
  const upload = async (file: Omit<DocumentUpload, "caption" | "replyTo" | "threadId" | "timeoutMs">, options: UploadOptions) => {
    const { uploadDocument } = await import("./send-document.ts");
    const sent = await uploadDocument(token, apiRoot, {
      ...file,
      ...(options.caption ? { caption: cutHtml(options.caption, CAPTION_LIMIT) } : {}),
      ...(options.replyTo ? { replyTo: options.replyTo } : {}),
      ...(options.threadId !== undefined ? { threadId: options.threadId } : {}),
      ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    });
    if (!sent.ok) {
      reachability.failed(sent.code);
      throw new TelegramApiError(sent.code, sent.description, sent.retryAfterSeconds);
    }
    reachability.answered();
    return { messageId: sent.messageId };
  };
  const styles = new ButtonStyles();
  const rich = richCalls({ call, styles, markup, methodMissing, ignoreNotModified });
  return {
    ...(settings.rich === false ? {} : rich),
    reachability,
    getUpdates: (offset, timeout, signal) => call<unknown[]>("getUpdates", { offset, timeout, allowed_updates: ["message", "callback_query"] }, signal),
    async sendMessage(chatId, html, options = {}) {
      const sent = await styles.send(options.forceReply ? undefined : options.keyboard, (keyboard) => {
        const reply_markup = options.forceReply
          ? { force_reply: true as const, input_field_placeholder: cutText(options.forceReply.placeholder, PLACEHOLDER_LIMIT) }
          : keyboard?.length
            ? markup(keyboard)
            : undefined;
        return call<{ message_id: number }>("sendMessage", {
          chat_id: chatId,
          parse_mode: "HTML",
          link_preview_options: { is_disabled: true },
          ...(reply_markup ? { reply_markup } : {}),
          ...(options.replyTo ? { reply_parameters: { message_id: options.replyTo, allow_sending_without_reply: true } } : {}),
          ...(options.silent ? { disable_notification: true } : {}),
          ...(options.threadId !== undefined ? { message_thread_id: options.threadId } : {}),
          text: html,
        });
      });
      return { messageId: sent.message_id };
    },
    async editMessage(chatId, messageId, html, keyboard) {
      await styles
        .send(keyboard, (shown) =>
          call("editMessageText", {
            chat_id: chatId,
            message_id: messageId,
            parse_mode: "HTML",
            link_preview_options: { is_disabled: true },
            reply_markup: markup(shown ?? []),
            text: html,
          }),
        )
        .catch(ignoreNotModified);
    },
    async removeKeyboard(chatId, messageId) {
      await call("editMessageReplyMarkup", { chat_id: chatId, message_id: messageId, reply_markup: markup([]) }).catch(ignoreNotModified);
    },
    async sendDraft(chatId, draftId, html, threadId) {
      await call("sendMessageDraft", {
        chat_id: chatId,
        draft_id: draftId,
        parse_mode: "HTML",
        ...(threadId !== undefined ? { message_thread_id: threadId } : {}),
        text: html,
      });
    },
    async deleteMessage(chatId, messageId) {
      await call("deleteMessage", { chat_id: chatId, message_id: messageId });
    },
    sendDocument: (chatId, filename, content, options = {}) => upload({ chatId, filename, content }, options),
    sendFile: (chatId, file, options = {}) => upload({ chatId, filename: file.filename, content: file.bytes, mime: file.mime, as: file.as }, options),
    sendVoice: (chatId, ogg, options = {}) => upload({ chatId, filename: "answer.ogg", content: ogg, mime: "audio/ogg", as: "voice" }, options),
    async createTopic(chatId, name) {
      const topic = await call<{ message_thread_id: number }>("createForumTopic", { chat_id: chatId, name: cutText(name, TOPIC_NAME_LIMIT) });
      return topic.message_thread_id;
    },
    async renameTopic(chatId, threadId, name) {
      await call("editForumTopic", { chat_id: chatId, message_thread_id: threadId, name: cutText(name, TOPIC_NAME_LIMIT) });
    },
    async react(chatId, messageId, emoji) {
      await call("setMessageReaction", { chat_id: chatId, message_id: messageId, reaction: [{ type: "emoji", emoji }] });
    },
    async answerCallback(id, text, showAlert) {
      await call("answerCallbackQuery", {
        ...(text === undefined ? {} : { text: cutText(text, CALLBACK_ANSWER_LIMIT) }),
        callback_query_id: id,
        show_alert: showAlert ?? false,
      });
    },
    async setCommands(commands) {
      await call("setMyCommands", { commands: commands.map((entry) => ({ ...entry })) });
    },
    async getFile(fileId) {
      const file = await call<{ file_path?: unknown; file_size?: unknown }>("getFile", { file_id: fileId });
      return {
        ...(typeof file.file_path === "string" ? { path: file.file_path } : {}),
        ...(typeof file.file_size === "number" ? { size: file.file_size } : {}),
      };
    },
    downloadFile: (filePath, maxBytes) => download(`${apiRoot.replace(/\/+$/, "")}/file/bot${token}/`, filePath, maxBytes),
    async getMe() {
      const me = await call<{ id: number; username?: string }>("getMe", {});
      return me.username === undefined ? { id: me.id } : { id: me.id, username: me.username };
    },
  };
}

/** Reads the file into memory, never more than `maxBytes`. Errors never carry the URL (it holds the token). */
async function download(base: string, filePath: string, maxBytes: number): Promise<Uint8Array> {
  if (!/^[A-Za-z0-9_\-.]+(?:\/[A-Za-z0-9_\-.]+)*$/.test(filePath) || filePath.split("/").some((segment) => segment === "." || segment === "..")) {
    throw new TelegramApiError(400, "unusable file path from getFile");
  }
  let response: Response;
  try {
    response = await fetch(base + filePath, { signal: AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS) });
  } catch (error) {
    const cause = (error as { cause?: { code?: unknown } } | null)?.cause?.code;
    throw new TelegramApiError(0, typeof cause === "string" ? cause : error instanceof Error ? error.name : "download failed");
  }
  if (!response.ok || !response.body) {
    await response.body?.cancel().catch(() => undefined);
    throw new TelegramApiError(response.status, `file download answered ${response.status}`);
  }
  const declared = Number(response.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body.cancel().catch(() => undefined);
    throw new FileTooBigError(maxBytes);
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = response.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) {
        await reader.cancel().catch(() => undefined);
        throw new FileTooBigError(maxBytes);
      }
      chunks.push(value);
    }
  } catch (error) {
    if (error instanceof FileTooBigError) throw error;
    throw new TelegramApiError(0, error instanceof Error ? error.name : "download failed");
  }
  return Buffer.concat(chunks, total);
}

function ignoreNotModified(error: unknown): void {
  if (error instanceof TelegramApiError && error.isNotModified) return;
  throw error;
}

/** A thrown failure as a TelegramApiError: an abort or a fault in the runtime's fetch is "no answer" (code 0). */
function normaliseError(error: unknown): TelegramApiError {
  if (error instanceof TelegramApiError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new TelegramApiError(0, message);
}
