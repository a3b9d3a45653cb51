// How often /start is answered: each chat at most once per interval, so a flood of /start from
// one chat costs one message. Who gets an answer at all is the gate's decision (lib/bridge/core/gate.ts,
// lib/telegram/access.ts' mayLearnIds). Pure.

export const START_REPLY_INTERVAL_MS = 30_000;
/** Chats remembered at most (the oldest are forgotten first). */
const REMEMBERED_CHATS = 1_000;

export class StartReplies {
  readonly #now: () => number;
  readonly #lastAnswer = new Map<number, number>();

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /** Whether a /start in this chat gets an answer now (and if so, counts it). */
  mayAnswer(chatId: number): boolean {
    const now = this.#now();
    const last = this.#lastAnswer.get(chatId);
    if (last !== undefined && now - last < START_REPLY_INTERVAL_MS) return false;
    this.#lastAnswer.delete(chatId);
    this.#lastAnswer.set(chatId, now);
    if (this.#lastAnswer.size > REMEMBERED_CHATS) this.#lastAnswer.delete(this.#lastAnswer.keys().next().value!);
    return true;
  }
}
