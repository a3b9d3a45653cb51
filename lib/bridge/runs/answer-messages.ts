// Messages that carry an answer the agent wrote (a Done notice, or a session's answer shown on
// demand): sent as a rich message when the Bot API has them (lib/rich/: tables, code, headings, up
// to 32,768 characters), else formatted as today, as plain text once if Telegram can't parse the
// formatting (never lost); a reply to them reaches the session, and when only the answer's end fit,
// the whole answer follows as answer.md (a reply to the file reaches the session too). A server
// without rich messages answers the first one "method not found": nothing was sent, today's HTML
// goes instead, and from then on only HTML (the client remembers), logged once. A rich message
// refused otherwise goes as today's HTML too, logged.
import type { Strings } from "../../i18n/catalog.ts";
import type { Logger } from "../../system/log.ts";
import type { MessageOwner, Registry } from "../../registry/registry.ts";
import { errorText } from "../../util/error-text.ts";
import { RichMessagesMissing, TelegramApiError, type TelegramApi } from "../../telegram/wire/api.ts";
import type { RichAnswer } from "../../rich/rich-answer.ts";
import { loadRichAnswer } from "../../rich/rich-markdown.ts";
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
  /** The outbox's lane: `Priority.Answer` when a person asked for it (/sessions), `Priority.Awaited` for a run's notice. */
  priority: Priority;
  /** Sent with no notification (a Done notice of a run started at the desk while the person is there). */
  silent?: boolean;
}

/**
 * Sends a message that shows agent text; `shortened`: the message shows only the end of `answer`,
 * which then follows in full as a file replying to it. Resolves with the message, undefined if it
 * was not sent (the outbox dropped it); Telegram's other errors reach the caller.
 */
export async function postAnswerMessage(
  deps: AnswerMessageDeps,
  target: AnswerTarget,
  message: { html: Html; shortened: boolean; keyboard?: InlineButton[][]; rich?: RichAnswer | undefined },
  answer: string,
): Promise<{ messageId: number } | undefined> {
  const { outbox, registry } = deps;
  const { chatId, threadId, owner } = target;
  const options = { ...inThread(threadId), ...(message.keyboard ? { keyboard: message.keyboard } : {}), ...(target.silent ? { silent: true } : {}) };
  const sent = await outbox.send(chatId, () => () => sendAnswer(deps, chatId, message, options), target.priority);
  if (!sent) return undefined;
  registry.noteMessage({ chatId, messageId: sent.messageId }, owner);
  if (sent.shortened) await attachAnswer(deps, target, answer, sent.messageId);
  return { messageId: sent.messageId };
}

/**
 * The rich form of an answer between Hermes' lines (`tail` undefined: none below it), when the
 * client has rich messages; undefined otherwise (today's HTML goes).
 */
export async function richAnswerFor(
  deps: Pick<AnswerMessageDeps, "telegram" | "t">,
  head: Html,
  answer: string,
  tail: Html | undefined,
): Promise<RichAnswer | undefined> {
  if (!deps.telegram.sendRichMessage || !answer.trim()) return undefined;
  const render = await loadRichAnswer();
  return render?.(head, answer, tail, ANSWER_FILE, deps.t);
}

/** "Show this session's answer": the answer under `header` (HTML), rendered, sent as postAnswerMessage sends it. */
export async function showAnswer(deps: AnswerMessageDeps, target: AnswerTarget, header: Html, answer: string): Promise<{ messageId: number } | undefined> {
  const markdown = await loadMarkdown();
  const rich = await richAnswerFor(deps, header, answer, undefined);
  return postAnswerMessage(deps, target, { ...renderAnswerMessage(header, answer, markdown, deps.t), rich }, answer);
}

/** The rich form if there is one and the server takes it, else today's HTML; `shortened`: of the one sent. */
async function sendAnswer(
  deps: AnswerMessageDeps,
  chatId: number,
  message: { html: Html; shortened: boolean; rich?: RichAnswer | undefined },
  options: { threadId?: number; keyboard?: InlineButton[][]; silent?: boolean },
): Promise<{ messageId: number; shortened: boolean }> {
  const { telegram, log } = deps;
  if (message.rich && telegram.sendRichMessage) {
    try {
      const sent = await telegram.sendRichMessage(chatId, message.rich.html, options);
      return { messageId: sent.messageId, shortened: message.rich.shortened };
    } catch (error) {
      if (error instanceof RichMessagesMissing) {
        if (error.first) log.warn({}, "this Bot API server has no rich messages (sendRichMessage: method not found): answers go as HTML from now on");
      } else if (error instanceof TelegramApiError && error.code === 400) {
        log.warn({ err: errorText(error) }, "Telegram refused a rich answer: sent as HTML");
      } else throw error;
    }
  }
  const sent = await sendFormatted(deps, chatId, message.html, options);
  return { messageId: sent.messageId, shortened: message.shortened };
}

/** The formatted message; if Telegram can't parse it, the same text with no formatting, once, and a log line. */
async function sendFormatted(
  deps: AnswerMessageDeps,
  chatId: number,
  html: Html,
  options: { threadId?: number; keyboard?: InlineButton[][]; silent?: boolean },
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
