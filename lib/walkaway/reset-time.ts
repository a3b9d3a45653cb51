// When a provider's usage limit resets, read from its own words (pure). OpenCode passes the words
// on (1.x's retry `message`, the error's `data.message`; 2.0.15's `error.message`) but reads no
// reset time from them: 1.18.33 ignores it, 2.0.15 fails at once (docs/compatibility.md). What is
// read: an ISO 8601 time ("resets at 2026-12-02T04:11:00Z"), a Unix time in seconds
// ("usage limit reached|1796178660"), a wait ("try again in 2h 13m", "in 20 seconds"), or a clock
// time ("at 4:11 AM", "at 04:11", local time, the next one to come).

/** A reset further than this is no reset time (a typo, or a monthly quota: nothing to wait for tonight). */
export const MAX_RESET_MS = 8 * 24 * 3_600_000;

/** The words a usage or rate limit is told in (OpenCode 2.0.15's own patterns, and the common 429 bodies). */
const LIMIT_WORDS = /usage[-_\s]?limit|rate[-_\s]?limit|too[-_\s]?many[-_\s]?requests|quota|limit (?:reached|exceeded)|resets? (?:at|in)/i;

/** The provider's words tell a usage or rate limit. */
export function isLimitWords(words: string): boolean {
  return LIMIT_WORDS.test(words);
}

const ISO = /\b(\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)/;
const EPOCH = /(?:^|[^\d.])(\d{10})(?:\d{3})?(?![\d.])/;
const WAIT = /\bin\s+((?:\d+(?:\.\d+)?\s*(?:h|hr|hrs|hours?|m|min|mins|minutes?|s|sec|secs|seconds?)\b[\s,and]*)+)/i;
const WAIT_PART = /(\d+(?:\.\d+)?)\s*(h|hr|hrs|hours?|m|min|mins|minutes?|s|sec|secs|seconds?)\b/gi;
const CLOCK = /\bat\s+(\d{1,2}):(\d{2})(?::(\d{2}))?\s*(am|pm|a\.m\.|p\.m\.)?/i;

/** The reset time the words name, in ms since the epoch, if one is named and lies ahead (within MAX_RESET_MS). */
export function resetTimeIn(words: string, now: number): number | undefined {
  for (const read of [isoTime, epochTime, waitTime, clockTime]) {
    const at = read(words, now);
    if (at !== undefined && Number.isFinite(at) && at > now && at - now <= MAX_RESET_MS) return at;
  }
  return undefined;
}

function isoTime(words: string): number | undefined {
  const match = ISO.exec(words);
  if (!match) return undefined;
  const text = match[1]!.replace(" ", "T");
  // Without a zone, an ISO time is the machine's local time (as Date.parse reads it).
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : at;
}

function epochTime(words: string, now: number): number | undefined {
  const match = EPOCH.exec(words);
  if (!match) return undefined;
  const at = Number(match[1]) * 1_000;
  return at > now - 86_400_000 ? at : undefined;
}

function waitTime(words: string, now: number): number | undefined {
  const match = WAIT.exec(words);
  if (!match) return undefined;
  let ms = 0;
  for (const part of match[1]!.matchAll(WAIT_PART)) {
    const value = Number(part[1]);
    const unit = part[2]!.toLowerCase();
    ms += value * (unit.startsWith("h") ? 3_600_000 : unit.startsWith("m") ? 60_000 : 1_000);
  }
  return ms > 0 ? now + Math.round(ms) : undefined;
}

function clockTime(words: string, now: number): number | undefined {
  const match = CLOCK.exec(words);
  if (!match) return undefined;
  let hours = Number(match[1]);
  const minutes = Number(match[2]);
  const seconds = match[3] ? Number(match[3]) : 0;
  const half = match[4]?.toLowerCase().replace(/\./g, "");
  if (minutes > 59 || seconds > 59 || hours > 23 || (half && (hours < 1 || hours > 12))) return undefined;
  if (half === "pm" && hours < 12) hours += 12;
  if (half === "am" && hours === 12) hours = 0;
  const at = new Date(now);
  at.setHours(hours, minutes, seconds, 0);
  if (at.getTime() <= now) at.setDate(at.getDate() + 1);
  return at.getTime();
}
