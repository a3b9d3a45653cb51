import { parseTelegramHtml, trimmed, type MessageEntity } from "./html.ts";
import { badRequest } from "./types.ts";

/** Checks Telegram applies to message text, captions and inline keyboards. */

export const MAX_TEXT = 4096;
export const MAX_CAPTION = 1024;
export const MAX_CALLBACK_DATA_BYTES = 64;
/** Inline keyboards: at most 100 buttons and 8 per row (tginfo/Telegram-Limits, issue #228; Bot API answers REPLY_MARKUP_TOO_LONG). */
export const MAX_INLINE_BUTTONS = 100;
export const MAX_INLINE_ROW = 8;
/** InlineKeyboardButton.style (Bot API 9.4): the only values Telegram accepts. */
export const BUTTON_STYLES = ["danger", "success", "primary"];
/** 'supported' checks each button's style; 'refused' answers like an older Bot API server that doesn't know the field. */
export type ButtonStyleMode = "supported" | "refused";

/** Validates text + parse_mode and returns the visible text (throws a 400 TelegramApiError). */
export function visibleText(text: string, parseMode: unknown): string {
  if (typeof parseMode === "string" && parseMode.toLowerCase() === "html") {
    const parsed = parseTelegramHtml(text);
    if (!parsed.ok) throw badRequest(`can't parse entities: ${parsed.error}`);
    return parsed.plain;
  }
  return text;
}

export function checkMessageText(text: unknown, parseMode: unknown): string {
  if (typeof text !== "string" || text.length === 0) throw badRequest("message text is empty");
  const plain = visibleText(text, parseMode);
  if (plain.trim().length === 0) throw badRequest("message text is empty");
  if (plain.length > MAX_TEXT) throw badRequest("message is too long");
  return text;
}

export function checkCaption(caption: unknown, parseMode: unknown): string | undefined {
  if (caption === undefined || caption === null) return undefined;
  const text = String(caption);
  if (visibleText(text, parseMode).length > MAX_CAPTION) throw badRequest("message caption is too long");
  return text;
}

/** Validates reply_markup; returns the normalized markup (undefined = no markup). */
export function checkReplyMarkup(markup: unknown, styles: ButtonStyleMode = "supported"): any {
  if (markup === undefined || markup === null || markup === "") return undefined;
  if (typeof markup !== "object") throw badRequest("can't parse reply keyboard markup JSON object");
  const keyboard = (markup as { inline_keyboard?: unknown }).inline_keyboard;
  if (keyboard === undefined) return markup;
  if (!Array.isArray(keyboard)) throw badRequest('field "inline_keyboard" of the InlineKeyboardMarkup should be an Array of Arrays');
  let buttons = 0;
  for (const row of keyboard) {
    if (!Array.isArray(row)) throw badRequest('field "inline_keyboard" of the InlineKeyboardMarkup should be an Array of Arrays');
    if (row.length > MAX_INLINE_ROW) throw badRequest("REPLY_MARKUP_TOO_LONG");
    for (const button of row) checkButton(button, styles);
    buttons += row.length;
  }
  if (buttons > MAX_INLINE_BUTTONS) throw badRequest("REPLY_MARKUP_TOO_LONG");
  return keyboard.every((row) => row.length === 0) ? undefined : markup;
}

function checkButton(button: any, styles: ButtonStyleMode): void {
  if (!button || typeof button.text !== "string" || button.text.length === 0) {
    throw badRequest("can't parse inline keyboard button: Text must be non-empty");
  }
  if ("style" in button) {
    if (styles === "refused") throw badRequest(`can't parse inline keyboard button: Field "style" is unexpected`);
    if (!BUTTON_STYLES.includes(button.style)) throw badRequest(`can't parse inline keyboard button: invalid button style "${String(button.style)}"`);
  }
  if ("callback_data" in button) {
    const data = button.callback_data;
    const bytes = typeof data === "string" ? Buffer.byteLength(data) : -1;
    if (bytes < 1 || bytes > MAX_CALLBACK_DATA_BYTES) throw badRequest("BUTTON_DATA_INVALID");
    return;
  }
  const actions = [
    "url",
    "login_url",
    "switch_inline_query",
    "switch_inline_query_current_chat",
    "switch_inline_query_chosen_chat",
    "copy_text",
    "web_app",
    "callback_game",
    "pay",
  ];
  if (!actions.some((a) => a in button)) {
    throw badRequest("can't parse inline keyboard button: Text buttons are unallowed in the inline keyboard");
  }
}

/** What Telegram keeps of a text or caption: the visible text, trimmed, and its entities (not the HTML that made them). */
export function storedContent(text: string, parseMode: unknown): { plain: string; entities: MessageEntity[] } {
  if (typeof parseMode === "string" && parseMode.toLowerCase() === "html") {
    const parsed = parseTelegramHtml(text);
    if (parsed.ok) return trimmed(parsed.plain, parsed.entities);
  }
  return { plain: text.trim(), entities: [] };
}

/** Whether two texts show the same: `<b>` and `<strong>`, `&amp;` and `&#38;` or a trailing newline make no difference. */
export function sameContent(a: { text: string; parseMode?: unknown }, b: { text: string; parseMode?: unknown }): boolean {
  return JSON.stringify(storedContent(a.text, a.parseMode)) === JSON.stringify(storedContent(b.text, b.parseMode));
}

/** Markups compare as Telegram stores them: the order of a button's fields does not matter. */
export function sameMarkup(a: unknown, b: unknown): boolean {
  return JSON.stringify(canonical(a ?? null)) === JSON.stringify(canonical(b ?? null));
}

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
  );
}

export function requireChatId(payload: Record<string, any>): number {
  const id = payload.chat_id;
  const n = typeof id === "number" ? id : typeof id === "string" && /^-?\d+$/.exec(id) !== null ? Number(id) : NaN;
  if (!Number.isFinite(n)) throw badRequest("chat not found");
  return n;
}

export function requireMessageId(payload: Record<string, any>): number {
  const n = Number(payload.message_id);
  if (!Number.isInteger(n)) throw badRequest("message identifier is not specified");
  return n;
}
