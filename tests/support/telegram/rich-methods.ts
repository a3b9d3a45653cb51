import type { MethodContext, MethodHandler } from "./context.ts";
import { editable, messageMethods, NOT_MODIFIED, record } from "./message-methods.ts";
import { readRichMessage, sameRich, type RichContent } from "./rich.ts";

export type { RichMode } from "./rich.ts";
import { badRequest, TelegramApiError, type SentMessage } from "./types.ts";
import { checkReplyMarkup, requireChatId, sameMarkup } from "./validate.ts";

/**
 * sendRichMessage, sendRichMessageDraft and editMessageText's `rich_message` (Bot API 10.1+), as
 * strict as the documentation: the rich message read by telegram/rich.ts; none of parse_mode,
 * entities or link_preview_options (not parameters of rich messages); a text message never edited
 * into a rich one nor back (neither is documented); an edit that shows the same is "not modified".
 * 'refused': a Bot API server older than 10.1 (tdlib/telegram-bot-api at 10.0): the methods are
 * "Not Found: method not found", and editMessageText ignores `rich_message` ("message text is empty").
 */

export const RICH_METHOD_NOT_FOUND = "Not Found: method not found";
const NOT_RICH_PARAMETERS = ["parse_mode", "entities", "link_preview_options", "text"];

function methodNotFound(): TelegramApiError {
  return new TelegramApiError(404, RICH_METHOD_NOT_FOUND);
}

function richContent(ctx: MethodContext, draft: boolean): RichContent {
  for (const name of NOT_RICH_PARAMETERS) if (ctx.payload[name] !== undefined) throw badRequest(`parameter "${name}" is not supported in rich messages`);
  if (ctx.payload.rich_message === undefined) throw badRequest("rich message must be non-empty");
  const read = readRichMessage(ctx.payload.rich_message, draft);
  if (!read.ok) throw badRequest(`can't parse rich message: ${read.error}`);
  return read.content;
}

const sendRichMessage: MethodHandler = (ctx) => {
  if (ctx.state.richMessages === "refused") throw methodNotFound();
  const chatId = requireChatId(ctx.payload);
  ctx.state.rights.checkPost(chatId);
  const rich = richContent(ctx, false);
  const replyMarkup = checkReplyMarkup(ctx.payload.reply_markup, ctx.state.buttonStyles);
  return record(ctx, chatId, { text: rich.plain, replyMarkup, rich });
};

/** A private chat's ephemeral preview of a rich message: nothing is stored; a group refuses it. */
const sendRichMessageDraft: MethodHandler = (ctx) => {
  if (ctx.state.richMessages === "refused") throw methodNotFound();
  const chatId = requireChatId(ctx.payload);
  if (chatId < 0) throw badRequest("TEXTDRAFT_PEER_INVALID");
  const draftId = Number(ctx.payload.draft_id);
  if (!Number.isSafeInteger(draftId) || draftId === 0) throw badRequest("invalid draft_id");
  if (ctx.payload.reply_markup !== undefined) throw badRequest("drafts take no reply markup");
  richContent(ctx, true);
  return true;
};

/** editMessageText on a rich message, or with `rich_message`. */
function editRichMessage(ctx: MethodContext, m: SentMessage): unknown {
  if (ctx.state.richMessages === "refused") {
    // An older server ignores the parameter it does not know.
    if (ctx.payload.text === undefined) throw badRequest("message text is empty");
  }
  if (ctx.payload.text !== undefined && ctx.payload.rich_message !== undefined) throw badRequest("exactly one of text and rich_message must be specified");
  if (!m.rich) throw badRequest("a text message can't be edited into a rich message");
  if (ctx.payload.rich_message === undefined) throw badRequest("a rich message can't be edited into a text message");
  const rich = richContent(ctx, false);
  const replyMarkup = checkReplyMarkup(ctx.payload.reply_markup, ctx.state.buttonStyles);
  return applyRich(ctx, m, rich, replyMarkup);
}

function editRichMarkup(ctx: MethodContext, m: SentMessage): unknown {
  return applyRich(ctx, m, m.rich!, checkReplyMarkup(ctx.payload.reply_markup, ctx.state.buttonStyles));
}

function applyRich(ctx: MethodContext, m: SentMessage, rich: RichContent, replyMarkup: unknown): unknown {
  if (sameRich(rich, m.rich!) && sameMarkup(replyMarkup, m.replyMarkup)) throw badRequest(NOT_MODIFIED);
  m.rich = rich;
  m.text = rich.plain;
  m.replyMarkup = replyMarkup;
  m.history.push({ text: rich.plain, replyMarkup, at: Date.now() });
  return ctx.state.store.botMessageObject(m);
}

/** editMessageText and editMessageReplyMarkup: a rich message's own rules, else the text message's. */
const editMessageText: MethodHandler = (ctx) => {
  if (ctx.payload.rich_message === undefined && !richTarget(ctx)) return messageMethods.editMessageText!(ctx);
  const m = editable(ctx);
  if (m.document || m.photo) throw badRequest("there is no text in the message to edit");
  return editRichMessage(ctx, m);
};

const editMessageReplyMarkup: MethodHandler = (ctx) => {
  if (!richTarget(ctx)) return messageMethods.editMessageReplyMarkup!(ctx);
  return editRichMarkup(ctx, editable(ctx));
};

function richTarget(ctx: MethodContext): boolean {
  try {
    return editable(ctx).rich !== undefined;
  } catch {
    return false;
  }
}

/** Added over messageMethods (fake-telegram.ts): the rich methods, and the edits that know rich messages. */
export const richMethods: Record<string, MethodHandler> = { sendRichMessage, sendRichMessageDraft, editMessageText, editMessageReplyMarkup };
