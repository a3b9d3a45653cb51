import { TelegramApiError } from "./types.ts";

/**
 * Telegram's flood limits, enforced the way api.telegram.org does (opt-in in the fake):
 *  - per private chat (positive id): about one message a second, with a small burst
 *    (a token bucket of `privateBurst` refilled at `privatePerSecond`);
 *  - per group (negative id): at most `groupPerMinute` messages in any 60 s (sliding window);
 *  - per bot, all chats together: at most `globalPerSecond` messages in any 1 s (sliding window).
 * Over a limit the request is answered 429 "Too Many Requests: retry after N" with
 * `parameters.retry_after = N` (whole seconds, at least 1), and the chat is blocked until then:
 * every counted request for that chat before N elapsed is answered 429 again, and, when it was
 * sent after the client had the 429, counted as a retry_after violation.
 *
 * `scale` compresses time for benchmarks: rates × scale, windows ÷ scale (bursts unchanged), and
 * retry_after too: N "scaled seconds" are N / scale real seconds, so with scale > 1 retry_after is
 * fractional (Telegram's are whole seconds; at scale 1 they are). Without that, a whole-second
 * wait would last `scale` times longer than the limit asks and distort what is measured.
 */
export interface FloodLimits {
  privatePerSecond: number;
  privateBurst: number;
  groupPerMinute: number;
  globalPerSecond: number;
  /** Time compression (default 1 = Telegram's real limits). */
  scale: number;
  /** A request this close to the end of its chat's retry_after is not a violation (timer jitter). */
  toleranceMs: number;
}

export const TELEGRAM_FLOOD_LIMITS: Readonly<FloodLimits> = {
  privatePerSecond: 1,
  privateBurst: 3,
  groupPerMinute: 20,
  globalPerSecond: 30,
  scale: 1,
  toleranceMs: 10,
};

/** `true` = Telegram's limits; an object overrides some of them. */
export type FloodLimitsOption = boolean | Partial<FloodLimits>;

/** The Bot API methods that count as messages (edits and deletions count like messages). */
export const FLOOD_COUNTED_METHODS: readonly string[] = [
  "sendMessage",
  "sendRichMessage",
  "editMessageText",
  "editMessageReplyMarkup",
  "sendDocument",
  "sendPhoto",
  "sendVoice",
  "deleteMessage",
];
const COUNTED = new Set(FLOOD_COUNTED_METHODS.map((m) => m.toLowerCase()));

export interface RetryAfterViolation {
  chatId: number;
  method: string;
  /** How long before the promised retry time the request came (ms). */
  earlyMs: number;
  /** performance.now() of the request. */
  at: number;
}

export interface FloodStats {
  enabled: boolean;
  limits: FloodLimits | null;
  /** Counted requests let through. */
  allowed: number;
  /** 429s answered by the flood limits (not by injected faults). */
  rejected: number;
  /** Requests for a chat that came after its 429 and before the retry_after elapsed. */
  retryAfterViolations: number;
  /** The first 100 violations, for diagnostics. */
  violations: RetryAfterViolation[];
  /** Rejections by reason. */
  rejectedBy: { chat: number; global: number; blocked: number };
}

interface Bucket {
  tokens: number;
  updatedAt: number;
}

interface Block {
  /** performance.now() until which the chat must wait (the promised retry time). */
  until: number;
  /** When the 429 that set it was answered: requests that arrived before it could not know. */
  answeredAt: number;
  /** False for an injected 429 fault: early requests are counted as violations but served. */
  enforce: boolean;
}

/** Whether a method is counted, and which chat it counts for. */
export function floodChatOf(method: string, payload: Record<string, any>): number | undefined {
  if (!COUNTED.has(method.toLowerCase())) return undefined;
  const chatId = Number(payload.chat_id);
  return Number.isFinite(chatId) ? chatId : undefined;
}

export class FloodLimiter {
  private limits: FloodLimits | null = null;
  private privateBuckets = new Map<number, Bucket>();
  private groupWindows = new Map<number, number[]>();
  private globalWindow: number[] = [];
  private blocks = new Map<number, Block>();
  private stats: Omit<FloodStats, "enabled" | "limits"> = FloodLimiter.emptyStats();

  constructor(private readonly now: () => number = () => performance.now()) {}

  private static emptyStats(): Omit<FloodStats, "enabled" | "limits"> {
    return { allowed: 0, rejected: 0, retryAfterViolations: 0, violations: [], rejectedBy: { chat: 0, global: 0, blocked: 0 } };
  }

  /** Enables (with Telegram's limits, or overrides), or disables with false/null. Resets the state, not the counters. */
  configure(option: FloodLimitsOption | null | undefined): void {
    this.limits = option ? { ...TELEGRAM_FLOOD_LIMITS, ...(option === true ? {} : option) } : null;
    if (this.limits && !(this.limits.scale > 0)) throw new Error(`flood limits: scale must be > 0 (got ${this.limits.scale})`);
    this.privateBuckets.clear();
    this.groupWindows.clear();
    this.globalWindow = [];
    this.blocks.clear();
  }

  get enabled(): boolean {
    return this.limits !== null;
  }

  resetStats(): void {
    this.stats = FloodLimiter.emptyStats();
  }

  snapshot(): FloodStats {
    return {
      enabled: this.enabled,
      limits: this.limits ? { ...this.limits } : null,
      ...this.stats,
      violations: [...this.stats.violations],
      rejectedBy: { ...this.stats.rejectedBy },
    };
  }

  /**
   * Decides a counted request for `chatId` that arrived at `arrivedAt` (performance.now()).
   * Returns the 429 to answer, or undefined (the message is counted).
   */
  check(chatId: number, method: string, arrivedAt: number): TelegramApiError | undefined {
    const limits = this.limits;
    const now = Math.max(this.now(), arrivedAt);
    const block = this.blocks.get(chatId);
    const tolerance = limits?.toleranceMs ?? TELEGRAM_FLOOD_LIMITS.toleranceMs;
    if (block && arrivedAt < block.until - tolerance) {
      if (arrivedAt > block.answeredAt) {
        this.stats.retryAfterViolations++;
        if (this.stats.violations.length < 100) this.stats.violations.push({ chatId, method, earlyMs: Math.round(block.until - arrivedAt), at: arrivedAt });
      }
      if (block.enforce && limits) {
        this.stats.rejected++;
        this.stats.rejectedBy.blocked++;
        return tooMany(retryAfterSeconds(block.until - now, limits.scale));
      }
    } else if (block) {
      this.blocks.delete(chatId);
    }
    if (!limits) return undefined;

    const scale = limits.scale;
    const globalWindowMs = 1000 / scale;
    prune(this.globalWindow, now - globalWindowMs);
    if (this.globalWindow.length >= limits.globalPerSecond) {
      return this.reject(chatId, "global", this.globalWindow[0]! + globalWindowMs - now);
    }

    if (chatId < 0) {
      const windowMs = 60_000 / scale;
      let window = this.groupWindows.get(chatId);
      if (!window) {
        window = [];
        this.groupWindows.set(chatId, window);
      }
      prune(window, now - windowMs);
      if (window.length >= limits.groupPerMinute) return this.reject(chatId, "chat", window[0]! + windowMs - now);
      window.push(now);
    } else {
      const perMs = (limits.privatePerSecond * scale) / 1000;
      let bucket = this.privateBuckets.get(chatId);
      if (!bucket) {
        bucket = { tokens: limits.privateBurst, updatedAt: now };
        this.privateBuckets.set(chatId, bucket);
      }
      bucket.tokens = Math.min(limits.privateBurst, bucket.tokens + (now - bucket.updatedAt) * perMs);
      bucket.updatedAt = now;
      if (bucket.tokens < 1) return this.reject(chatId, "chat", (1 - bucket.tokens) / perMs);
      bucket.tokens -= 1;
    }
    this.globalWindow.push(now);
    this.stats.allowed++;
    return undefined;
  }

  /** An injected 429 (a fault, not the limits) told `chatId` to wait: early requests count as violations. */
  told(chatId: number, retryAfterSeconds: number): void {
    const until = this.now() + retryAfterSeconds * 1000;
    const previous = this.blocks.get(chatId);
    if (previous && previous.until >= until) return;
    this.blocks.set(chatId, { until, answeredAt: Infinity, enforce: false });
  }

  /** The 429 for `chatId` was written at `answeredAt`: from then on the client knows. */
  answered(chatId: number, answeredAt: number): void {
    const block = this.blocks.get(chatId);
    if (block && block.answeredAt === Infinity) block.answeredAt = answeredAt;
  }

  private reject(chatId: number, reason: "chat" | "global", waitMs: number): TelegramApiError {
    const seconds = retryAfterSeconds(waitMs, this.limits?.scale ?? 1);
    const until = this.now() + seconds * 1000;
    const previous = this.blocks.get(chatId);
    // answeredAt is set once the 429 is on the wire (see answered()).
    this.blocks.set(chatId, { until: Math.max(until, previous?.until ?? 0), answeredAt: previous?.answeredAt ?? Infinity, enforce: true });
    this.stats.rejected++;
    this.stats.rejectedBy[reason]++;
    return tooMany(seconds);
  }
}

/** Whole (scaled) seconds, at least one, in real seconds. */
function retryAfterSeconds(waitMs: number, scale = 1): number {
  return Math.max(1, Math.ceil((waitMs * scale) / 1000)) / scale;
}

function tooMany(seconds: number): TelegramApiError {
  return new TelegramApiError(429, `Too Many Requests: retry after ${seconds}`, { retry_after: seconds });
}

/** Drops timestamps at or before `cutoff` from the front of a sorted list. */
function prune(times: number[], cutoff: number): void {
  let drop = 0;
  while (drop < times.length && times[drop]! <= cutoff) drop++;
  if (drop > 0) times.splice(0, drop);
}
