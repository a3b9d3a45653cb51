// One message with a rich form (Bot API 10.1+) and today's HTML: sent rich where the client has
// rich messages, else as HTML. A server without them answers "method not found": nothing was sent,
// the HTML goes, and the client never asks again (logged once, by the call that found it out); a
// rich message refused otherwise (a 400) goes as HTML too, logged. Nothing is sent twice. Its
// edits keep its kind: a rich message is edited rich, an HTML one as HTML (Telegram documents no
// edit between them).
import type { Logger } from "../../system/log.ts";
import type { Html } from "../../text/html.ts";
import { RichMessagesMissing, TelegramApiError, type SendOptions, type TelegramApi } from "../../telegram/wire/api.ts";
import type { InlineButton, RichHtml } from "../../telegram/wire/rendered-message.ts";
import { errorText } from "../../util/error-text.ts";

export interface RichSendDeps {
  telegram: TelegramApi;
  log: Logger;
}

/** The rich form when there is one and the server takes it, else today's HTML; `rich`: it went rich. */
export async function sendRichOrHtml(
  deps: RichSendDeps,
  chatId: number,
  shown: { text: Html; rich?: RichHtml | undefined },
  options: Omit<SendOptions, "forceReply">,
  what: string,
): Promise<{ messageId: number; rich?: true }> {
  const { telegram, log } = deps;
  if (shown.rich !== undefined && telegram.sendRichMessage) {
    try {
      return { ...(await telegram.sendRichMessage(chatId, shown.rich, options)), rich: true };
    } catch (error) {
      if (error instanceof RichMessagesMissing) {
        if (error.first) log.warn({}, "this Bot API server has no rich messages (sendRichMessage: method not found): messages go as HTML from now on");
      } else if (error instanceof TelegramApiError && error.code === 400) {
        log.warn({ err: errorText(error) }, `Telegram refused ${what} as a rich message: sent as HTML`);
      } else throw error;
    }
  }
  return telegram.sendMessage(chatId, shown.text, options);
}

/** An edit that keeps the message's kind: rich (its rich form, when it has one) or HTML. */
export function editRichOrHtml(
  deps: RichSendDeps,
  message: { chatId: number; messageId: number; rich: boolean },
  shown: { text: Html; rich?: RichHtml | undefined; keyboard: InlineButton[][] },
): Promise<void> {
  const { telegram } = deps;
  if (message.rich && shown.rich !== undefined && telegram.editRichMessage)
    return telegram.editRichMessage(message.chatId, message.messageId, shown.rich, shown.keyboard);
  return telegram.editMessage(message.chatId, message.messageId, shown.text, shown.keyboard);
}
