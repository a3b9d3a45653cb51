// Messages that carry an answer the agent wrote (a Done notice, or a session's answer shown on
// demand): sent formatted, as plain text once if Telegram can't parse the formatting (never lost),
// a reply to them reaches the session, and when only the answer's end fit, the whole answer
// follows as answer.md (a reply to the file reaches the session too).
import type { Strings } from "../../i18n/catalog.ts";
import type { Logger } from "../../system/log.ts";
import type { MessageOwner, Registry } from "../../registry/registry.ts";
import { errorText } from "../../util/error-text.ts";
import { TelegramApiError, type TelegramApi } from "../../telegram/wire/api.ts";
import { escapeHtml, type Html, visibleText } from "../../text/html.ts";
import { loadMarkdown } from "../../text/markdown.ts";
import type { Outbox, Priority } from "../../telegram/wire/outbox.ts";
import { ANSWER_FILE, renderAnswerMessage } from "../../telegram/render/render-agent-text.ts";
import type { InlineButton } from "../../telegram/wire/rendered-message.ts";
import { inThread } from "../core/chat.ts";

export interface AnswerMessageDeps {
  telegram: TelegramApi;
  outbox: Outbox;
  registry: Registry;
  log: Logger;
  t: Strings;
}

/** Where an answer goes, and whose it is (replies to it reach that session). */
export interface AnswerTarget {
  chatId: number;
  threadId: number | undefined;
  owner: MessageOwner;
  /** The outbox's lane: `Priority.Answer` when a person asked for it (/sessions), `Priority.Edit` for a notice. */
  priority: Priority;
}

/**
 * Sends a message that shows agent text; `shortened`: the message shows only the end of `answer`,
 * which then follows in full as a file replying to it. Resolves with the message, undefined if it
 * was not sent (the outbox dropped it); Telegram's other errors reach the caller.
 */
export async function postAnswerMessage(
  deps: AnswerMessageDeps,
  target: AnswerTarget,
  message: { html: Html; shortened: boolean; keyboard?: InlineButton[][] },
  answer: string,
): Promise<{ messageId: number } | undefined> {
  const { outbox, registry } = deps;
  const { chatId, threadId, owner } = target;
  const options = { ...inThread(threadId), ...(message.keyboard ? { keyboard: message.keyboard } : {}) };
  const sent = await outbox.send(chatId, () => () => sendFormatted(deps, chatId, message.html, options), target.priority);
  if (!sent) return undefined;
  registry.noteMessage({ chatId, messageId: sent.messageId }, owner);
  if (message.shortened) await attachAnswer(deps, target, answer, sent.messageId);
  return sent;
}

/** "Show this session's answer": the answer under `header` (HTML), rendered, sent as postAnswerMessage sends it. */
export async function showAnswer(deps: AnswerMessageDeps, target: AnswerTarget, header: Html, answer: string): Promise<{ messageId: number } | undefined> {
  const markdown = await loadMarkdown();
  return postAnswerMessage(deps, target, renderAnswerMessage(header, answer, markdown, deps.t), answer);
}

/** The formatted message; if Telegram can't parse it, the same text with no formatting, once, and a log line. */
async function sendFormatted(
  deps: AnswerMessageDeps,
  chatId: number,
  html: Html,
  options: { threadId?: number; keyboard?: InlineButton[][] },
): Promise<{ messageId: number }> {
  const { telegram, log } = deps;
  try {
    return await telegram.sendMessage(chatId, html, options);
  } catch (error) {
    if (!(error instanceof TelegramApiError && error.isParseError)) throw error;
    log.warn({ err: errorText(error) }, "Telegram could not parse a formatted answer: sent as plain text");
    return telegram.sendMessage(chatId, escapeHtml(visibleText(html)), options);
  }
}

async function attachAnswer(deps: AnswerMessageDeps, target: AnswerTarget, answer: string, messageId: number): Promise<void> {
  const { outbox, telegram, registry, log, t } = deps;
  const { chatId, threadId, owner } = target;
  const options = { caption: escapeHtml(t.answer.fileCaption), replyTo: messageId, ...inThread(threadId) };
  try {
    const sent = await outbox.send(chatId, () => () => telegram.sendDocument(chatId, ANSWER_FILE, answer, options), target.priority);
    if (sent) registry.noteMessage({ chatId, messageId: sent.messageId }, owner);
  } catch (error) {
    log.warn({ err: errorText(error) }, "could not attach the whole answer");
  }
}
