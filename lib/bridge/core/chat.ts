// The configured chat's plain traffic: short replies, deletions and answers to button taps. Sends
// and deletions go through the outbox (they count against the chat's budget); callback answers
// do not. A reply answers a person's action and goes in the outbox's answer lane; `send` says its
// lane. Failures are logged or ignored: none of these is worth stopping for.
import type { Logger } from "../../system/log.ts";
import type { MessageRef } from "../../registry/prompt.ts";
import { TelegramApiError, type TelegramApi } from "../../telegram/wire/api.ts";
import { CALLBACK_ANSWER_LIMIT, cutText, type Html } from "../../text/html.ts";
import { Priority, type Outbox } from "../../telegram/wire/outbox.ts";
import { errorText } from "../../util/error-text.ts";
import { sleep } from "../../util/sleep.ts";
import { withTimeout } from "../../util/with-timeout.ts";
import { CALLBACK_ANSWER_TIMEOUT_MS } from "../../telegram/wire/timeouts.ts";

type SendOptions = Parameters<TelegramApi["sendMessage"]>[2];

/** The waits before a tap's answer is tried again (see `answerCallback`). */
const CALLBACK_RETRY_MS = [250, 1_000] as const;

export class Chat {
  constructor(
    /** Undefined: no chat configured yet (setup), so there is nothing to post to. */
    readonly id: number | undefined,
    private readonly deps: { telegram: TelegramApi; outbox: Outbox; log: Logger },
  ) {}

  /** A short message in reply to `replyTo` (in the session's topic if there is one). */
  async reply(text: Html, replyTo: number, threadId?: number): Promise<void> {
    await this.post(text, replyTo, threadId);
  }

  /** `reply`, telling which message it sent (undefined when it could not). */
  post(text: Html, replyTo: number, threadId?: number): Promise<MessageRef | undefined> {
    return this.send(text, { replyTo, ...inThread(threadId) }, Priority.Answer);
  }

  /**
   * A message with any of sendMessage's options (a keyboard, a force reply) at `priority` (the
   * outbox's lane: `Priority.Answer` for what answers a person's action); undefined when there is
   * no chat or it could not be sent. `failure`: what the log says then (nothing when omitted).
   */
  async send(text: Html, options: SendOptions, priority: Priority, failure?: string): Promise<MessageRef | undefined> {
    const { outbox, telegram, log } = this.deps;
    const chatId = this.id;
    if (chatId === undefined) return undefined;
    const sent = await outbox
      .send(chatId, () => () => telegram.sendMessage(chatId, text, options), priority)
      .catch((error) => void (failure !== undefined && log.warn({ err: errorText(error) }, failure)));
    return sent ? { chatId, messageId: sent.messageId } : undefined;
  }

  delete(message: MessageRef): void {
    const { outbox, telegram } = this.deps;
    void outbox.chore(message.chatId, () => telegram.deleteMessage(message.chatId, message.messageId)).catch(() => undefined);
  }

  removeKeyboard(message: MessageRef): void {
    const { outbox, telegram } = this.deps;
    void outbox.chore(message.chatId, () => telegram.removeKeyboard(message.chatId, message.messageId)).catch(() => undefined);
  }

  /**
   * Answers a tap (its button stops spinning). A call that got no answer (a connection reset, as the
   * taps bench saw, or nothing within CALLBACK_ANSWER_TIMEOUT_MS: the tap's work waits for it) or
   * server trouble is tried again after CALLBACK_RETRY_MS, twice at most: Telegram takes a tap's
   * answer only for a few seconds, and one left unanswered spins on the phone.
   */
  async answerCallback(id: string, text?: string, alert?: boolean): Promise<void> {
    const { telegram, log } = this.deps;
    const shown = text === undefined ? undefined : cutText(text, CALLBACK_ANSWER_LIMIT);
    for (let attempt = 0; ; attempt++) {
      try {
        const call = telegram.answerCallback(id, shown, alert);
        return await withTimeout(call, CALLBACK_ANSWER_TIMEOUT_MS, () => new TelegramApiError(0, `no answer within ${CALLBACK_ANSWER_TIMEOUT_MS} ms`));
      } catch (error) {
        const again = attempt < CALLBACK_RETRY_MS.length && error instanceof TelegramApiError && error.code !== 429 && error.isTransient;
        if (!again) return void log.warn({ err: errorText(error), attempts: attempt + 1 }, "could not answer a callback query");
        await sleep(CALLBACK_RETRY_MS[attempt]!);
      }
    }
  }
}

/**
 * A message's text and keyboard replaced through the outbox at `priority` (`Priority.Answer` when a
 * person's tap asked for it); a failure is logged as `failure`, never thrown.
 */
export async function editMessageIn(
  deps: { telegram: TelegramApi; outbox: Outbox; log: Logger },
  message: MessageRef,
  shown: { text: Html; keyboard: Parameters<TelegramApi["editMessage"]>[3] },
  priority: Priority,
  failure: string,
): Promise<void> {
  const { outbox, telegram, log } = deps;
  await outbox
    .edit(message.chatId, message.messageId, () => () => telegram.editMessage(message.chatId, message.messageId, shown.text, shown.keyboard), priority)
    .catch((error) => log.warn({ err: errorText(error) }, failure));
}

export function inThread(threadId: number | undefined): { threadId?: number } {
  return threadId === undefined ? {} : { threadId };
}
