// One Telegram group that several bots (several fake Bot API servers, one token each) are members
// of: what a person writes there reaches every bot's getUpdates, as in Telegram with privacy mode
// off. Each bot keeps its own store of what it sent.
import type { FakeTelegram, TgUser } from "../fake-telegram.ts";

export interface SharedGroup {
  chatId: number;
  /** A person's message in the group, delivered to every bot; the message id each bot's update carries. */
  sendText(text: string, opts?: { from?: TgUser; replyTo?: { bot: FakeTelegram; messageId: number } }): Array<{ bot: FakeTelegram; messageId: number }>;
}

export function shareGroup(chatId: number, bots: FakeTelegram[]): SharedGroup {
  if (chatId >= 0) throw new Error("a group id is negative");
  return {
    chatId,
    sendText(text, opts = {}) {
      return bots.map((bot) => {
        // A reply to one bot's message is a reply only for that bot (the others never saw its id).
        const replyTo = opts.replyTo?.bot === bot ? opts.replyTo.messageId : undefined;
        const sent = bot.sendText(chatId, text, {
          chatType: "supergroup",
          ...(opts.from ? { from: opts.from } : {}),
          ...(replyTo !== undefined ? { replyTo } : {}),
        });
        return { bot, messageId: sent.messageId };
      });
    },
  };
}
