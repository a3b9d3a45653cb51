// Pairing for `opencode-hermes setup`: a one-time code in a deep link (https://t.me/<bot>?start=<code>
// makes Telegram send "/start <code>"), so setup only takes the chat of the person who has the link,
// never a stranger's /start, whether sent before setup began or while it waits. Pure: no I/O.
import { randomBytes } from "node:crypto";
import { isRecord } from "../util/is-record.ts";
import { parseUpdate } from "../telegram/wire/updates.ts";

/** 16 random bytes in base64url: 22 characters of [A-Za-z0-9_-], what a deep link's start parameter allows (≤ 64). */
export function newPairingCode(random: (size: number) => Buffer = randomBytes): string {
  return random(16).toString("base64url");
}

export interface PairingLinks {
  /** Opens the bot's private chat; Start sends "/start <code>". */
  privateChat: string;
  /** Picks a group to add the bot to; Telegram then sends "/start@<bot> <code>" there. */
  group: string;
}

export function pairingLinks(username: string, code: string): PairingLinks {
  return { privateChat: `https://t.me/${username}?start=${code}`, group: `https://t.me/${username}?startgroup=${code}` };
}

export interface PairedChat {
  messageId: number;
  chatId: number;
  chatType: string;
  chatTitle?: string;
  userId: number;
  /** As Telegram has it (the sender chose it): escape it before printing. */
  userName: string;
}

/**
 * What one update means to the pairing: the chat (a /start with this code), "wrong-code" (a /start
 * without it: someone else's, or an old link), "other" (any other message), undefined (the rest).
 */
export function pairingStart(update: unknown, username: string, code: string): PairedChat | "wrong-code" | "other" | undefined {
  if (!isRecord(update)) return undefined;
  const intent = parseUpdate(update);
  if (!intent || intent.kind === "callback") return undefined;
  if (intent.kind !== "command" || intent.name !== "start" || (intent.bot !== undefined && intent.bot.toLowerCase() !== username.toLowerCase())) return "other";
  if (intent.args !== code) return "wrong-code";
  // parseUpdate found a command, so the message, its chat and its sender are objects.
  const message = isRecord(update.message) ? update.message : {};
  const chat = isRecord(message.chat) ? message.chat : {};
  const user = isRecord(message.from) ? message.from : {};
  const fullName = [user.first_name, user.last_name].filter((part) => typeof part === "string" && part).join(" ");
  return {
    messageId: intent.messageId,
    chatId: intent.from.chatId,
    chatType: intent.from.chatType,
    ...(typeof chat.title === "string" ? { chatTitle: chat.title } : {}),
    userId: intent.from.userId,
    userName: typeof user.username === "string" ? `@${user.username}` : fullName || `user ${intent.from.userId}`,
  };
}
