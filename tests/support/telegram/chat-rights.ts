// What the bot may do in each chat of the fake Telegram, for the tests that need a chat it can't
// post to (`opencode-hermes doctor`): its membership in a group (getChatMember), the group's
// default permissions and topics (getChat), a private chat whose user blocked it, and privacy mode
// (getMe). Unset, every chat lets the bot post, as before. The refusals use Telegram's own words.
import type { TgUser } from "./types.ts";
import { TelegramApiError } from "./types.ts";

export interface ChatRights {
  /** The bot's status in a group (default "member"). */
  bot?: "member" | "administrator" | "restricted" | "left" | "kicked";
  /** An administrator bot's right to manage topics. */
  canManageTopics?: boolean;
  /** The group's default permission for members to send messages (default true). */
  membersCanPost?: boolean;
  /** A supergroup with topics. */
  isForum?: boolean;
  /** A private chat whose user blocked the bot. */
  blocked?: boolean;
}

export class ChatRightsState {
  readonly chats = new Map<number, ChatRights>();
  /** Telegram's default for a new bot: privacy mode on (it sees only commands and replies in groups). */
  privacyMode = true;

  of(chatId: number): ChatRights {
    return this.chats.get(chatId) ?? {};
  }

  /** getChat's extra fields for this chat. */
  chatFields(chatId: number): Record<string, unknown> {
    const rights = this.of(chatId);
    if (chatId > 0) return {};
    return {
      ...(rights.isForum ? { is_forum: true } : {}),
      permissions: { can_send_messages: rights.membersCanPost !== false },
    };
  }

  /** Throws as Telegram does when the bot may not see the chat at all. */
  checkVisible(chatId: number): void {
    const status = this.of(chatId).bot;
    if (status === "kicked") throw new TelegramApiError(403, "Forbidden: bot was kicked from the supergroup chat");
    if (status === "left") throw new TelegramApiError(403, "Forbidden: bot is not a member of the supergroup chat");
  }

  /** Throws as Telegram does when the bot may not post in the chat. */
  checkPost(chatId: number): void {
    const rights = this.of(chatId);
    if (rights.blocked) throw new TelegramApiError(403, "Forbidden: bot was blocked by the user");
    this.checkVisible(chatId);
    const admin = rights.bot === "administrator";
    if (rights.bot === "restricted" || (!admin && rights.membersCanPost === false))
      throw new TelegramApiError(400, "Bad Request: not enough rights to send text messages to the chat");
  }

  /** getChatMember for the bot itself. */
  botMember(chatId: number, bot: TgUser): Record<string, unknown> {
    this.checkVisible(chatId);
    const rights = this.of(chatId);
    const status = rights.bot ?? "member";
    if (status === "administrator")
      return { status, user: bot, can_be_edited: false, can_manage_topics: rights.canManageTopics === true, can_delete_messages: true };
    if (status === "restricted") return { status, user: bot, is_member: true, can_send_messages: false };
    return { status, user: bot };
  }
}
