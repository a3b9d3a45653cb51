// Durations as people write and read them: parses what users put in environment variables and
// flags ("1500" (ms), "90s", "30m", "2h"), and words a length of time for the chat or the terminal.
import { CATALOGS, type Strings } from "./catalog.ts";

const UNIT_MS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 };

/** Returns milliseconds, or undefined when the text is not a duration. */
export function parseDuration(text: string): number | undefined {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$/i.exec(text);
  if (!match) return undefined;
  const value = Number(match[1]);
  const unit = (match[2] ?? "ms").toLowerCase();
  const ms = Math.round(value * (UNIT_MS[unit] ?? 1));
  return Number.isSafeInteger(ms) ? ms : undefined;
}

/** Whole units, in the chat's language: "45 s", "1 min 30 s", "2 h 5 min". */
export function formatDuration(ms: number, t: Strings = CATALOGS.en): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return t.notice.seconds(seconds);
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return t.notice.minutes(minutes, seconds % 60);
  return t.notice.hours(Math.floor(minutes / 60), minutes % 60);
}

/** One unit with at most one decimal, for the terminal (English): "250 ms", "1.5 s", "2.5 min", "90 min". */
export function formatDurationDecimal(ms: number): string {
  if (ms < 1_000) return `${ms} ms`;
  if (ms < 60_000) return `${Math.round(ms / 100) / 10} s`;
  const minutes = Math.round(ms / 6_000) / 10;
  return `${minutes} min`;
}
