// The Bot API's rich messages (10.1+): sendRichMessage, sendRichMessageDraft and editMessageText
// with `rich_message`, for the client (api.ts). A server older than 10.1 answers the first of them
// "method not found": RichMessagesMissing (`first` for that call only), and none is asked again,
// for the rest of the process: one latch for messages and drafts.
import type { RichHtml } from "../../rich/rich-html.ts";
import type { ButtonStyles } from "./button-style.ts";
import type { InlineButton } from "./rendered-message.ts";

/** The Bot API server has no rich messages (older than 10.1): send today's HTML instead. `first`: this call found it out. */
export class RichMessagesMissing extends Error {
  constructor(readonly first: boolean) {
    super("this Bot API server has no rich messages (sendRichMessage: method not found)");
    this.name = "RichMessagesMissing";
  }
}

export interface RichCallDeps {
  call: <T>(method: string, payload: object) => Promise<T>;
  styles: ButtonStyles;
  markup: (keyboard: InlineButton[][]) => object;
  /** The server does not know the method (404 "method not found"). */
  methodMissing: (error: unknown) => boolean;
  ignoreNotModified: (error: unknown) => void;
}

/** sendMessage's options that a rich message takes (no force-reply). */
export interface RichSendOptions {
  keyboard?: InlineButton[][];
  replyTo?: number;
  silent?: boolean;
  threadId?: number;
}

/** What api.ts' TelegramApi declares of them (documented there). */
export interface RichMethods {
  sendRichMessage(chatId: number, rich: RichHtml, options?: RichSendOptions): Promise<{ messageId: number }>;
  editRichMessage(chatId: number, messageId: number, rich: RichHtml, keyboard: InlineButton[][]): Promise<void>;
  sendRichDraft(chatId: number, draftId: number, rich: RichHtml, threadId?: number): Promise<void>;
}

export function richCalls(deps: RichCallDeps): RichMethods {
  const { call, styles, markup, methodMissing, ignoreNotModified } = deps;
  /** The server answered "method not found" once: it has none. */
  let richMissing = false;
  const sendRichMessage: RichMethods["sendRichMessage"] = async (chatId, rich, options = {}) => {
    if (richMissing) throw new RichMessagesMissing(false);
    try {
      const sent = await styles.send(options.keyboard, (keyboard) =>
        call<{ message_id: number }>("sendRichMessage", {
          chat_id: chatId,
          rich_message: { html: rich },
          ...(keyboard?.length ? { reply_markup: markup(keyboard) } : {}),
          ...(options.replyTo ? { reply_parameters: { message_id: options.replyTo, allow_sending_without_reply: true } } : {}),
          ...(options.silent ? { disable_notification: true } : {}),
          ...(options.threadId !== undefined ? { message_thread_id: options.threadId } : {}),
        }),
      );
      return { messageId: sent.message_id };
    } catch (error) {
      if (!methodMissing(error)) throw error;
      richMissing = true;
      throw new RichMessagesMissing(true);
    }
  };

  const sendRichDraft: RichMethods["sendRichDraft"] = async (chatId, draftId, rich, threadId) => {
    if (richMissing) throw new RichMessagesMissing(false);
    try {
      await call("sendRichMessageDraft", {
        chat_id: chatId,
        draft_id: draftId,
        rich_message: { html: rich },
        ...(threadId !== undefined ? { message_thread_id: threadId } : {}),
      });
    } catch (error) {
      if (!methodMissing(error)) throw error;
      richMissing = true;
      throw new RichMessagesMissing(true);
    }
  };

  const editRichMessage: RichMethods["editRichMessage"] = async (chatId, messageId, rich, keyboard) => {
    await styles
      .send(keyboard, (shown) =>
        call("editMessageText", { chat_id: chatId, message_id: messageId, rich_message: { html: rich }, reply_markup: markup(shown ?? []) }),
      )
      .catch(ignoreNotModified);
  };

  return { sendRichMessage, editRichMessage, sendRichDraft };
}
