// Which machine a message comes from, when several machines (one bot each) share a group: a first
// line on every message Hermes sends or edits. Pure decision, plus a TelegramApi that adds it.
import os from "node:os";
import { CATALOGS } from "../../i18n/catalog.ts";
import type { SendOptions, TelegramApi } from "../wire/api.ts";
import { CAPTION_LIMIT, EMPTY_HTML, escapeWithin, fitHtml, html, type Html, MESSAGE_LIMIT } from "../../text/html.ts";
import { reveal } from "../../text/reveal.ts";
import { joinRich, richFromHtml } from "../../rich/rich-html.ts";

/** Escaped length of the name on the label. */
const NAME_LIMIT = 64;
/**
 * The most a label takes of a message, in what Telegram counts: "🖥 " (3), the name (at most
 * NAME_LIMIT) and the line break. A message that fills itself up to the limit leaves this free.
 */
export const LABEL_ROOM = 3 + NAME_LIMIT + 1;

export interface LabelSettings {
  /** HERMES_MACHINE_NAME, when set. */
  machineName?: string;
  topics?: boolean;
  /** Undefined: no chat configured yet. */
  chatId: number | undefined;
}

/**
 * The name to show, if any: the one set explicitly, else the host name when the chat is a group
 * without topics (several machines' messages meet there; a private chat or a topic per session
 * already tells them apart).
 */
export function machineLabel(settings: LabelSettings, hostname: () => string = os.hostname): string | undefined {
  if (settings.machineName) return settings.machineName;
  if (!settings.topics && settings.chatId !== undefined && settings.chatId < 0) return hostname() || undefined;
  return undefined;
}

/** The label line as HTML: the name is whatever the user (or the host) set, marked and escaped. */
export function labelLine(name: string): Html {
  return html`🖥 <b>${escapeWithin(reveal(name, CATALOGS.en), NAME_LIMIT)}</b>`;
}

/** Rich messages start with the label's line as a paragraph of their own (rich-answer.ts leaves room for it). */
function labelRich(send: NonNullable<TelegramApi["sendRichMessage"]>, line: Html): NonNullable<TelegramApi["sendRichMessage"]> {
  const paragraph = richFromHtml(line);
  return (chatId, body, options) => send(chatId, paragraph ? joinRich([paragraph, body]) : body, options);
}

function labelRichDraft(send: NonNullable<TelegramApi["sendRichDraft"]>, line: Html): NonNullable<TelegramApi["sendRichDraft"]> {
  const paragraph = richFromHtml(line);
  return (chatId, draftId, body, threadId) => send(chatId, draftId, paragraph ? joinRich([paragraph, body]) : body, threadId);
}

function labelRichEdit(edit: NonNullable<TelegramApi["editRichMessage"]>, line: Html): NonNullable<TelegramApi["editRichMessage"]> {
  const paragraph = richFromHtml(line);
  return (chatId, messageId, body, keyboard) => edit(chatId, messageId, paragraph ? joinRich([paragraph, body]) : body, keyboard);
}

/** The same API, every message text and caption starting with the machine's label (cut to fit as HTML, counted as Telegram counts). */
export function labelMessages(api: TelegramApi, name: string): TelegramApi {
  const line = labelLine(name);
  const label = (text: Html, limit: number) => fitHtml(html`${line}\n${text}`, limit);
  return {
    ...api,
    sendMessage: (chatId: number, text: Html, options?: SendOptions) => api.sendMessage(chatId, label(text, MESSAGE_LIMIT), options),
    editMessage: (chatId, messageId, text, keyboard) => api.editMessage(chatId, messageId, label(text, MESSAGE_LIMIT), keyboard),
    ...(api.sendRichMessage ? { sendRichMessage: labelRich(api.sendRichMessage, line) } : {}),
    ...(api.editRichMessage ? { editRichMessage: labelRichEdit(api.editRichMessage, line) } : {}),
    ...(api.sendRichDraft ? { sendRichDraft: labelRichDraft(api.sendRichDraft, line) } : {}),
    sendDraft: (chatId, draftId, text, threadId) => api.sendDraft(chatId, draftId, label(text, MESSAGE_LIMIT), threadId),
    sendDocument: (chatId, filename, content, options = {}) =>
      api.sendDocument(chatId, filename, content, { ...options, caption: label(options.caption ?? EMPTY_HTML, CAPTION_LIMIT) }),
    sendVoice: (chatId, ogg, options = {}) => api.sendVoice(chatId, ogg, { ...options, caption: label(options.caption ?? EMPTY_HTML, CAPTION_LIMIT) }),
    sendFile: (chatId, file, options = {}) => api.sendFile(chatId, file, { ...options, caption: label(options.caption ?? EMPTY_HTML, CAPTION_LIMIT) }),
  };
}
