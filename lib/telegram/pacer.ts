// Telegram's flood limits as token buckets: per chat (about one message a second in private chats,
// twenty a minute in groups) and overall (under thirty a second). Pure: time is passed in.

export interface PaceLimits {
  privatePerSecond: number;
  privateBurst: number;
  groupPerMinute: number;
  groupBurst: number;
  globalPerSecond: number;
  globalBurst: number;
}

export const TELEGRAM_LIMITS: PaceLimits = {
  privatePerSecond: 1,
  privateBurst: 3,
  groupPerMinute: 20,
  // With a burst of one, no sixty seconds ever see more than twenty-one messages.
  groupBurst: 1,
  globalPerSecond: 25,
  globalBurst: 25,
};

interface Bucket {
  tokens: number;
  updatedAt: number;
  /** Telegram said "retry after": nothing goes to this chat before then. */
  blockedUntil: number;
}

export class Pacer {
  readonly #limits: PaceLimits;
  readonly #chats = new Map<number, Bucket>();
  readonly #global: Bucket;

  constructor(limits: PaceLimits, now: number) {
    this.#limits = limits;
    this.#global = { tokens: limits.globalBurst, updatedAt: now, blockedUntil: 0 };
  }

  /** When a message to `chatId` may go out (`now` or later). */
  readyAt(chatId: number, now: number): number {
    const chat = this.#chat(chatId, now);
    const [rate, burst] = this.#rate(chatId);
    return Math.max(now, chat.blockedUntil, this.#global.blockedUntil, whenToken(chat, rate, burst, now), whenToken(this.#global, this.#limits.globalPerSecond / 1000, this.#limits.globalBurst, now));
  }

  /** Spends one message's worth for `chatId`; call only when `readyAt` says now. */
  take(chatId: number, now: number): void {
    const [rate, burst] = this.#rate(chatId);
    refill(this.#chat(chatId, now), rate, burst, now).tokens -= 1;
    refill(this.#global, this.#limits.globalPerSecond / 1000, this.#limits.globalBurst, now).tokens -= 1;
  }

  /** Telegram's 429: wait exactly `retryAfterSeconds` before the next message to that chat. */
  block(chatId: number, retryAfterSeconds: number, now: number): void {
    const chat = this.#chat(chatId, now);
    chat.blockedUntil = Math.max(chat.blockedUntil, now + retryAfterSeconds * 1000);
    chat.tokens = 0;
  }

  #rate(chatId: number): [perMs: number, burst: number] {
    return chatId < 0 ? [this.#limits.groupPerMinute / 60_000, this.#limits.groupBurst] : [this.#limits.privatePerSecond / 1000, this.#limits.privateBurst];
  }

  #chat(chatId: number, now: number): Bucket {
    let bucket = this.#chats.get(chatId);
    if (!bucket) {
      bucket = { tokens: this.#rate(chatId)[1], updatedAt: now, blockedUntil: 0 };
      this.#chats.set(chatId, bucket);
    }
    return bucket;
  }
}

function refill(bucket: Bucket, perMs: number, burst: number, now: number): Bucket {
  if (now > bucket.updatedAt) {
    bucket.tokens = Math.min(burst, bucket.tokens + (now - bucket.updatedAt) * perMs);
    bucket.updatedAt = now;
  }
  return bucket;
}

function whenToken(bucket: Bucket, perMs: number, burst: number, now: number): number {
  const tokens = Math.min(burst, bucket.tokens + Math.max(0, now - bucket.updatedAt) * perMs);
  return tokens >= 1 ? now : now + Math.ceil((1 - tokens) / perMs);
}
