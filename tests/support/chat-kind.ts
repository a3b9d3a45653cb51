// The chats the end-to-end suites run in: the owner's private chat, or a supergroup (negative id,
// where the allow-list matters and Telegram allows twenty messages a minute). In a supergroup the
// fake Telegram enforces Telegram's flood limits, so a message Hermes sends over budget is a 429.
import { DEFAULT_CHAT_ID, DEFAULT_USER, type FakeTelegramOptions } from "./fake-telegram.ts";

export type ChatKind = "private" | "supergroup";

export const CHAT_KINDS: readonly ChatKind[] = ["private", "supergroup"];
export const SUPERGROUP_CHAT_ID = -1001234567890;

export interface ChatSetup {
  kind: ChatKind;
  chatId: number;
  /** Hermes' chat and allow-list (in a group only the owner may answer). */
  env: Record<string, string>;
  telegram: FakeTelegramOptions;
}

export function chatSetup(kind: ChatKind): ChatSetup {
  if (kind === "private")
    return {
      kind,
      chatId: DEFAULT_CHAT_ID,
      env: { HERMES_TELEGRAM_CHAT_ID: String(DEFAULT_CHAT_ID), HERMES_TELEGRAM_ALLOWED_USERS: String(DEFAULT_USER.id) },
      telegram: {},
    };
  return {
    kind,
    chatId: SUPERGROUP_CHAT_ID,
    env: { HERMES_TELEGRAM_CHAT_ID: String(SUPERGROUP_CHAT_ID), HERMES_TELEGRAM_ALLOWED_USERS: String(DEFAULT_USER.id) },
    telegram: { floodLimits: true },
  };
}
