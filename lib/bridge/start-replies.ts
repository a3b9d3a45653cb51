// Who gets an answer to /start, and how often. Before a chat is configured (setup), anyone who
// sends /start learns their chat id. Once it is, only the owner does (in the configured chat, or in
// another chat such as a new group, when the sender is the configured private chat's user or an
// allowed user); strangers get no answer at all, so they can't spend the bot's sending budget.
// Each chat gets at most one answer per interval. Pure.
import type { AccessPolicy } from "../telegram/access.ts";
import type { Sender } from "../telegram/updates.ts";

export const START_REPLY_INTERVAL_MS = 30_000;
/** Chats remembered at most (the oldest are forgotten first). */
const REMEMBERED_CHATS = 1_000;

export class StartReplies {
  readonly #access: AccessPolicy;
  readonly #now: () => number;
  readonly #lastAnswer = new Map<number, number>();

  constructor(access: AccessPolicy, now: () => number = Date.now) {
    this.#access = access;
    this.#now = now;
  }

  /** Whether this /start gets an answer (and if so, counts it). */
  mayAnswer(sender: Sender): boolean {
    if (!this.#isWelcome(sender)) return false;
    const now = this.#now();
    const last = this.#lastAnswer.get(sender.chatId);
    if (last !== undefined && now - last < START_REPLY_INTERVAL_MS) return false;
    this.#lastAnswer.delete(sender.chatId);
    this.#lastAnswer.set(sender.chatId, now);
    if (this.#lastAnswer.size > REMEMBERED_CHATS) this.#lastAnswer.delete(this.#lastAnswer.keys().next().value!);
    return true;
  }

  #isWelcome(sender: Sender): boolean {
    const { chatId, allowedUsers } = this.#access;
    if (chatId === undefined) return true; // not configured yet: /start is how the user finds their chat id
    if (allowedUsers.length > 0) return allowedUsers.includes(sender.userId);
    // No allow-list: the configured chat's members, or the user whose private chat it is.
    return sender.chatId === chatId || sender.userId === chatId;
  }
}
