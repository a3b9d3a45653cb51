// A group's sliding window as Telegram counts it, read back from the fake's record of calls: which
// messages a chat was let through (sends, edits and deletions that got a 200), how many of them
// the window holds at a moment, and when it has room for one more again. Pure: the tests give the calls.
import { floodChatOf, TELEGRAM_FLOOD_LIMITS } from "./flood.ts";
import type { ApiCall } from "./types.ts";

export interface GroupWindow {
  /** Messages a group allows in any `windowMs` (Telegram's twenty). */
  limit: number;
  windowMs: number;
}

export const TELEGRAM_GROUP_WINDOW: Readonly<GroupWindow> = { limit: TELEGRAM_FLOOD_LIMITS.groupPerMinute, windowMs: 60_000 };

/** When each counted message to `chatId` reached the fake (`at`: Date.now(); `hrAt`: performance.now()), for the calls it let through. */
export function countedSends(calls: readonly ApiCall[], chatId: number, clock: "at" | "hrAt" = "at"): number[] {
  return calls
    .filter((c) => c.status === 200 && floodChatOf(c.method, c.payload) === chatId)
    .map((c) => c[clock] ?? c.at)
    .sort((a, b) => a - b);
}

/** The messages of `sentAt` the window holds just before `at` (one sent at `at - windowMs` has left it). */
export function heldAt(sentAt: readonly number[], at: number, window: GroupWindow = TELEGRAM_GROUP_WINDOW): number {
  return sentAt.filter((t) => t > at - window.windowMs && t < at).length;
}

/** The first moment at `from` or later when the window holds fewer than its limit: one more message would be let through. */
export function roomAgainAt(sentAt: readonly number[], from: number, window: GroupWindow = TELEGRAM_GROUP_WINDOW): number {
  const leaving = sentAt.map((t) => t + window.windowMs).filter((t) => t > from);
  for (const at of [from, ...leaving.sort((a, b) => a - b)]) if (heldAt(sentAt, at, window) < window.limit) return at;
  return from;
}
