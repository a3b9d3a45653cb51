import type { MethodContext, MethodHandler } from "./context.ts";
import { badRequest, TelegramApiError, type SentMessage } from "./types.ts";
import { checkCaption, checkMessageText, checkReplyMarkup, requireChatId, requireMessageId, sameContent, sameMarkup } from "./validate.ts";

/** sendMessage, sendDocument, sendPhoto, editMessageText, editMessageCaption, editMessageReplyMarkup, deleteMessage. */

export const NOT_MODIFIED =
  "message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message";

function replyToId(payload: Record<string, any>): number | undefined {
  const id = payload.reply_parameters?.message_id ?? payload.reply_to_message_id;
  return id === undefined ? undefined : Number(id);
}

export function record(ctx: MethodContext, chatId: number, init: Omit<SentMessage, "chatId" | "messageId" | "deleted" | "history">): unknown {
  const { store } = ctx.state;
  const replyTo = replyToId(ctx.payload);
  if (
    replyTo !== undefined &&
    !store.replyTarget(chatId, replyTo) &&
    !ctx.payload.reply_parameters?.allow_sending_without_reply &&
    !ctx.payload.allow_sending_without_reply
  ) {
    throw badRequest("message to be replied not found");
  }
  const message: SentMessage = {
    chatId,
    messageId: store.nextMessageId(chatId),
    ...init,
    deleted: false,
    history: [{ text: init.text, replyMarkup: init.replyMarkup, at: Date.now() }],
    ...(replyTo !== undefined ? { replyToMessageId: replyTo } : {}),
    ...(ctx.payload.message_thread_id !== undefined ? { threadId: Number(ctx.payload.message_thread_id) } : {}),
  };
  const thread = message.threadId;
  if (thread !== undefined && !ctx.state.topics.some((topic) => topic.chatId === chatId && topic.threadId === thread))
    throw badRequest("message thread not found");
  store.botMessages.push(message);
  const obj = store.botMessageObject(message);
  const target = replyTo !== undefined ? store.replyTarget(chatId, replyTo) : undefined;
  if (target) obj.reply_to_message = target;
  if (message.threadId !== undefined) Object.assign(obj as object, { message_thread_id: message.threadId, is_topic_message: true });
  return obj;
}

const sendMessage: MethodHandler = (ctx) => {
  const chatId = requireChatId(ctx.payload);
  ctx.state.rights.checkPost(chatId);
  const text = checkMessageText(ctx.payload.text, ctx.payload.parse_mode);
  const replyMarkup = checkReplyMarkup(ctx.payload.reply_markup, ctx.state.buttonStyles);
  return record(ctx, chatId, { text, parseMode: ctx.payload.parse_mode, replyMarkup });
};

const sendDocument: MethodHandler = (ctx) => {
  const chatId = requireChatId(ctx.payload);
  const caption = checkCaption(ctx.payload.caption, ctx.payload.parse_mode);
  const replyMarkup = checkReplyMarkup(ctx.payload.reply_markup, ctx.state.buttonStyles);
  const file = ctx.files.document;
  const ref = ctx.payload.document;
  if (!file && (typeof ref !== "string" || ref.length === 0)) throw badRequest("there is no document in the request");
  if (file && file.bytes > DOCUMENT_LIMIT_BYTES) throw requestTooLarge();
  const document = {
    filename: file?.filename ?? String(ref),
    bytes: file?.bytes ?? 0,
    ...(file ? { content: file.content, data: file.data } : {}),
    ...(caption !== undefined ? { caption } : {}),
  };
  return record(ctx, chatId, { text: caption ?? "", parseMode: ctx.payload.parse_mode, replyMarkup, document });
};

/** Telegram's upload limits for bots: 10 MB for a photo, 50 MB for any file. */
const PHOTO_LIMIT_BYTES = 10 * 1024 * 1024;
const DOCUMENT_LIMIT_BYTES = 50 * 1024 * 1024;

function requestTooLarge(): TelegramApiError {
  return new TelegramApiError(413, "Request Entity Too Large");
}

const sendPhoto: MethodHandler = (ctx) => {
  const chatId = requireChatId(ctx.payload);
  const caption = checkCaption(ctx.payload.caption, ctx.payload.parse_mode);
  const replyMarkup = checkReplyMarkup(ctx.payload.reply_markup, ctx.state.buttonStyles);
  const file = ctx.files.photo;
  if (!file) throw badRequest("there is no photo in the request");
  if (file.bytes > PHOTO_LIMIT_BYTES) throw badRequest("PHOTO_INVALID_DIMENSIONS");
  const photo = {
    filename: file.filename,
    bytes: file.bytes,
    data: file.data,
    ...(file.type ? { type: file.type } : {}),
    ...(caption !== undefined ? { caption } : {}),
  };
  return record(ctx, chatId, { text: caption ?? "", parseMode: ctx.payload.parse_mode, replyMarkup, photo });
};

/** Telegram's limit for a voice message a bot sends. */
const VOICE_LIMIT_BYTES = 50 * 1024 * 1024;

const sendVoice: MethodHandler = (ctx) => {
  const chatId = requireChatId(ctx.payload);
  const caption = checkCaption(ctx.payload.caption, ctx.payload.parse_mode);
  const file = ctx.files.voice;
  if (!file) throw badRequest("there is no voice in the request");
  if (file.bytes > VOICE_LIMIT_BYTES) throw requestTooLarge();
  const voice = {
    filename: file.filename,
    bytes: file.bytes,
    data: file.data,
    ...(file.type ? { type: file.type } : {}),
    ...(caption !== undefined ? { caption } : {}),
  };
  return record(ctx, chatId, { text: caption ?? "", parseMode: ctx.payload.parse_mode, voice });
};

/**
 * sendMessageDraft (Bot API 9.3+): a private chat's ephemeral preview; nothing is stored as a
 * message. A group refuses it, as Telegram does; a draft_id of 0 and text over 4,096 too.
 */
const sendMessageDraft: MethodHandler = (ctx) => {
  const chatId = requireChatId(ctx.payload);
  if (chatId < 0) throw badRequest("TEXTDRAFT_PEER_INVALID");
  const draftId = Number(ctx.payload.draft_id);
  if (!Number.isSafeInteger(draftId) || draftId === 0) throw badRequest("invalid draft_id");
  if (ctx.payload.reply_markup !== undefined) throw badRequest("drafts take no reply markup");
  const text = String(ctx.payload.text ?? "");
  if (text !== "") checkMessageText(text, ctx.payload.parse_mode);
  return true;
};

export function editable(ctx: MethodContext): SentMessage {
  const m = ctx.state.store.findBotMessage(requireChatId(ctx.payload), requireMessageId(ctx.payload));
  if (!m || m.deleted) throw badRequest("message to edit not found");
  return m;
}

/**
 * Telegram refuses an edit after which the message would look exactly as before: the same visible
 * text and entities (however the HTML spelled them) and the same keyboard.
 */
function applyEdit(ctx: MethodContext, m: SentMessage, text: string, parseMode: string | undefined, replyMarkup: any): unknown {
  if (sameContent({ text, parseMode }, m) && sameMarkup(replyMarkup, m.replyMarkup)) throw badRequest(NOT_MODIFIED);
  m.text = text;
  m.parseMode = parseMode;
  m.replyMarkup = replyMarkup;
  if (m.document) m.document.caption = text;
  if (m.photo) m.photo.caption = text;
  m.history.push({ text, replyMarkup, at: Date.now() });
  return ctx.state.store.botMessageObject(m);
}

const editMessageText: MethodHandler = (ctx) => {
  const m = editable(ctx);
  if (m.document || m.photo) throw badRequest("there is no text in the message to edit");
  const text = checkMessageText(ctx.payload.text, ctx.payload.parse_mode);
  const replyMarkup = checkReplyMarkup(ctx.payload.reply_markup, ctx.state.buttonStyles);
  return applyEdit(ctx, m, text, ctx.payload.parse_mode, replyMarkup);
};

const editMessageCaption: MethodHandler = (ctx) => {
  const m = editable(ctx);
  if (!m.document && !m.photo) throw badRequest("there is no caption in the message to edit");
  const caption = checkCaption(ctx.payload.caption, ctx.payload.parse_mode) ?? "";
  return applyEdit(ctx, m, caption, ctx.payload.parse_mode, checkReplyMarkup(ctx.payload.reply_markup, ctx.state.buttonStyles));
};

const editMessageReplyMarkup: MethodHandler = (ctx) => {
  const m = editable(ctx);
  return applyEdit(ctx, m, m.text, m.parseMode, checkReplyMarkup(ctx.payload.reply_markup, ctx.state.buttonStyles));
};

const deleteMessage: MethodHandler = (ctx) => {
  const chatId = requireChatId(ctx.payload);
  const messageId = requireMessageId(ctx.payload);
  const target = ctx.state.store.findBotMessage(chatId, messageId) ?? ctx.state.store.findHumanMessage(chatId, messageId);
  if (!target || target.deleted) throw badRequest("message to delete not found");
  target.deleted = true;
  return true;
};

export const messageMethods: Record<string, MethodHandler> = {
  sendMessage,
  sendDocument,
  sendPhoto,
  sendVoice,
  sendMessageDraft,
  editMessageText,
  editMessageCaption,
  editMessageReplyMarkup,
  deleteMessage,
};
