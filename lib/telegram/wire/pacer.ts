// Telegram's flood limits, spent the way a user needs them. Pure: time is passed in.
//  - A group allows `groupLimit` messages in any `groupWindowMs` (twenty a minute): a sliding
//    window, so a prompt goes out at once while fewer than twenty went out in the last minute.
//  - A private chat allows about one message a second with short bursts: a token bucket.
//  - All chats together stay under `globalPerSecond`: a token bucket.
// Sends, edits and deletions all count against a chat (docs/delivery.md).
// Prompts are urgent. Answers to a person's action (a command's reply, a tap's confirmation, a
// list) come next: they leave a group's last `groupAnswerReserve` slots to prompts but do not wait
// while prompts flow. Everything else (edits of settled prompts, notices, chores) is deferrable
// and leaves room for both: in a group the last `groupReserve` slots of the window, and it waits
// while prompts flow (one went out in the last `groupQuietMs`); in a private chat `privateReserve`
// tokens. The first sight of a running command (deferrable, spaced under its run's key) leaves
// fewer in a group, `groupSightReserve`: a person waits for it, and an edit or a chore that went
// just before it must not take the slot it needs (an 8 s command went unseen in a busy supergroup).
// Spare traffic (live progress) is the least important: it goes only while a group's window holds
// fewer than `groupSpareLimit` messages or a private chat's bucket is full, and each spare key (one
// run's progress message) has a token bucket of its own: on average one call per `spareEveryGroupMs`
// (group) or `spareEveryPrivateMs`, with bursts of `spareBurst` (a minute holds at most `spareBurst`
// + 60 s / spareEvery calls of one key). Spare calls leave the key's last token to the calls under
// it that a person looks for (the first sight of a running command, the run's first message): a
// step's end or a to-do tick shown just before never makes the next command wait a whole spacing.
// Only a spare call that says no command follows (`lastToken`: the answer being written, a run's
// last phase) may spend it.

/** How a call spends a chat's budget, most urgent first (see above); spare traffic is deferrable with a spare key. */
export type Urgency = "prompt" | "answer" | "deferrable";

export interface PaceLimits {
  privatePerSecond: number;
  privateBurst: number;
  /** Tokens a deferrable message must leave for prompts in a private chat. */
  privateReserve: number;
  groupLimit: number;
  groupWindowMs: number;
  /** Slots of a group's window that deferrable messages leave to prompts and answers. */
  groupReserve: number;
  /** Slots of a group's window that answers to a person's action leave to prompts (fewer than `groupReserve`). */
  groupAnswerReserve: number;
  /** Slots of a group's window that the first sight of a running command leaves to prompts and answers (between the two above). */
  groupSightReserve: number;
  /** Deferrable messages to a group wait until no prompt went out for this long. */
  groupQuietMs: number;
  globalPerSecond: number;
  globalBurst: number;
  /** Spare messages to a group go only while its window holds fewer than this many. */
  groupSpareLimit: number;
  /** One spare key's calls, on average one per this long: in a group, and in a private chat. */
  spareEveryGroupMs: number;
  spareEveryPrivateMs: number;
  /** One spare key's calls that may go back to back after a quiet spell (its bucket's size; spare calls mostly leave the last one to a first sight). */
  spareBurst: number;
}

export const TELEGRAM_LIMITS: PaceLimits = {
  privatePerSecond: 1,
  privateBurst: 3,
  privateReserve: 1,
  groupLimit: 20,
  groupWindowMs: 60_000,
  groupReserve: 5,
  groupAnswerReserve: 1,
  groupSightReserve: 3,
  groupQuietMs: 2_000,
  globalPerSecond: 25,
  globalBurst: 25,
  groupSpareLimit: 10,
  spareEveryGroupMs: 10_000,
  spareEveryPrivateMs: 3_000,
  spareBurst: 2,
};

/** The tokens of its key a spare call leaves (to the first sight of a command; `lastToken` spends them). */
const KEY_TOKENS_KEPT = 1;

interface Bucket {
  tokens: number;
  updatedAt: number;
}

/** A spare key's bucket; its rate is its chat's (a group's or a private chat's). */
interface KeyBucket extends Bucket {
  everyMs: number;
}

interface Chat {
  /** Private chats. */
  bucket?: Bucket;
  /** Groups: what went out in the current window, oldest first. */
  sent?: Array<{ at: number; urgent: boolean }>;
  /** Telegram said "retry after": nothing goes to this chat before then. */
  blockedUntil: number;
}

export class Pacer {
  readonly #limits: PaceLimits;
  readonly #chats = new Map<number, Chat>();
  readonly #global: Bucket;
  /** Each spare key's bucket, while it is not full again (see `take`). */
  readonly #keyed = new Map<string, KeyBucket>();

  constructor(limits: PaceLimits, now: number) {
    this.#limits = limits;
    this.#global = { tokens: limits.globalBurst, updatedAt: now };
  }

  /**
   * When a message to `chatId` may go out (`now` or later); `spareKey` for spare traffic (see above).
   * `spare: false` with a key: a deferrable message spaced like its key's spare traffic, but with a
   * budget of its own (the first sight of a running command, a person waits for it: see above).
   * `lastToken`: a spare call that may spend its key's last token (see above).
   */
  readyAt(chatId: number, now: number, urgency: Urgency = "prompt", spareKey?: string, options: { spare?: boolean; lastToken?: boolean } = {}): number {
    const chat = this.#chat(chatId, now);
    const { privatePerSecond, privateBurst, privateReserve } = this.#limits;
    const global = whenTokens(this.#global, this.#limits.globalPerSecond / 1000, this.#limits.globalBurst, 1, now);
    const keyed = spareKey !== undefined && urgency === "deferrable";
    const spare = keyed && options.spare !== false;
    const needed = urgency !== "deferrable" ? 1 : spare ? privateBurst : 1 + privateReserve;
    const own = chat.sent
      ? this.#groupReadyAt(chat.sent, now, urgency, spare ? "spare" : keyed ? "sight" : "other")
      : whenTokens(chat.bucket!, privatePerSecond / 1000, privateBurst, needed, now);
    const key = keyed ? this.#keyed.get(spareKey) : undefined;
    const keyTokens = spare && !options.lastToken ? 1 + KEY_TOKENS_KEPT : 1;
    const spaced = key === undefined ? now : whenTokens(key, 1 / key.everyMs, this.#limits.spareBurst, keyTokens, now);
    return Math.max(now, chat.blockedUntil, global, own, spaced);
  }

  /**
   * Spends one message's worth for `chatId`; call only when `readyAt` says now. Call the returned
   * function when Telegram answered: a group's slot counts from then (Telegram counts the message
   * when it arrives, after `now`; counting from the send would free the slot too early).
   */
  take(chatId: number, now: number, urgency: Urgency = "prompt", spareKey?: string): (answeredAt: number) => void {
    const chat = this.#chat(chatId, now);
    if (spareKey !== undefined) this.#spendKey(spareKey, chat.sent ? this.#limits.spareEveryGroupMs : this.#limits.spareEveryPrivateMs, now);
    refill(this.#global, this.#limits.globalPerSecond / 1000, this.#limits.globalBurst, now).tokens -= 1;
    if (!chat.sent) {
      refill(chat.bucket!, this.#limits.privatePerSecond / 1000, this.#limits.privateBurst, now).tokens -= 1;
      return () => undefined;
    }
    const entry = { at: now, urgent: urgency === "prompt" };
    chat.sent.push(entry);
    return (answeredAt) => {
      entry.at = Math.max(entry.at, answeredAt);
      chat.sent!.sort((a, b) => a.at - b.at);
    };
  }

  /** Telegram's 429: wait exactly `retryAfterSeconds` before the next message to that chat. */
  block(chatId: number, retryAfterSeconds: number, now: number): void {
    const chat = this.#chat(chatId, now);
    chat.blockedUntil = Math.max(chat.blockedUntil, now + retryAfterSeconds * 1000);
    if (chat.bucket) chat.bucket.tokens = Math.min(chat.bucket.tokens, 0);
  }

  /**
   * A call under a spare key went out: it spends one of the key's tokens (an urgent one too, which
   * may leave the bucket owing). A bucket full again is forgotten: a new one starts full.
   */
  #spendKey(key: string, everyMs: number, now: number): void {
    const { spareBurst } = this.#limits;
    if (everyMs <= 0) return; // no spacing at all (the latency bench)
    for (const [other, bucket] of this.#keyed) if (refill(bucket, 1 / bucket.everyMs, spareBurst, now).tokens >= spareBurst) this.#keyed.delete(other);
    const bucket = this.#keyed.get(key) ?? { tokens: spareBurst, updatedAt: now, everyMs };
    refill(bucket, 1 / everyMs, spareBurst, now).tokens -= 1;
    this.#keyed.set(key, bucket);
  }

  /** How many spare keys the pacer remembers (each until its bucket is full again). */
  get spareKeys(): number {
    return this.#keyed.size;
  }

  /**
   * The earliest time the window has room: any slot for a prompt, a slot beyond the prompts' reserve
   * for an answer, beyond the sight's reserve for a first sight, beyond the largest reserve
   * otherwise, fewer still for spare traffic.
   */
  #groupReadyAt(sent: Array<{ at: number; urgent: boolean }>, now: number, urgency: Urgency, kind: "spare" | "sight" | "other"): number {
    const { groupLimit, groupWindowMs, groupReserve, groupAnswerReserve, groupSightReserve, groupQuietMs, groupSpareLimit } = this.#limits;
    while (sent.length > 0 && sent[0]!.at + groupWindowMs <= now) sent.shift();
    const deferrable =
      kind === "spare" ? Math.min(groupSpareLimit, groupLimit - groupReserve) : kind === "sight" ? groupLimit - groupSightReserve : groupLimit - groupReserve;
    const allowed = urgency === "prompt" ? groupLimit : urgency === "answer" ? groupLimit - groupAnswerReserve : deferrable;
    // Entries leave the window oldest first: the one that brings the count under `allowed`.
    const roomAt = sent.length < allowed ? now : sent[sent.length - Math.max(1, allowed)]!.at + groupWindowMs;
    let quietAt = now;
    if (urgency === "deferrable") for (const entry of sent) if (entry.urgent) quietAt = Math.max(quietAt, entry.at + groupQuietMs);
    return Math.max(roomAt, quietAt);
  }

  #chat(chatId: number, now: number): Chat {
    let chat = this.#chats.get(chatId);
    if (!chat) {
      chat = chatId < 0 ? { sent: [], blockedUntil: 0 } : { bucket: { tokens: this.#limits.privateBurst, updatedAt: now }, blockedUntil: 0 };
      this.#chats.set(chatId, chat);
    }
    return chat;
  }
}

function refill(bucket: Bucket, perMs: number, burst: number, now: number): Bucket {
  if (now > bucket.updatedAt) {
    bucket.tokens = Math.min(burst, bucket.tokens + (now - bucket.updatedAt) * perMs);
    bucket.updatedAt = now;
  }
  return bucket;
}

/** When the bucket holds `needed` tokens (capped at the burst). */
function whenTokens(bucket: Bucket, perMs: number, burst: number, needed: number, now: number): number {
  const want = Math.min(needed, burst);
  const tokens = Math.min(burst, bucket.tokens + Math.max(0, now - bucket.updatedAt) * perMs);
  return tokens >= want ? now : now + Math.ceil((want - tokens) / perMs);
}
