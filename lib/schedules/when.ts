// When a schedule runs (pure): `<when>` as the phone types it, parsed (`30m`, `2h`, at least a
// minute; `day 09:00`, `weekdays 09:00`; `/at`'s `HH:MM`, once), and the next run after a moment, in
// the machine's local time (the zone the process runs in: TZ, else the system's). A time of day is
// wall-clock time: across a daylight-saving change it stays 09:00; a time the change skips (02:30
// on a spring-forward night) runs when the clocks reach it (03:30), and a time the fall-back
// repeats runs once, at its first occurrence. An interval is exact time from when it was made.

import { MINUTE_MS } from "./pace.ts";

/** The longest interval: a week (a longer one is a time of day or a reminder, not a schedule). */
export const MAX_INTERVAL_MINUTES = 7 * 24 * 60;

export type When =
  /** Every `minutes`, counted from `anchor` (the moment it was made, ms since the epoch). */
  | { kind: "interval"; minutes: number; anchor: number }
  /** Every day, or Monday to Friday, at a local time of day. */
  | { kind: "daily"; weekdays: boolean; hour: number; minute: number }
  /** Once, the next time the local clock shows that time (`/at`). */
  | { kind: "once"; hour: number; minute: number };

/** Why `<when>` was not understood (the phone is told, with the forms it takes). */
export type WhenError = "empty" | "badWhen" | "tooShort" | "tooLong" | "badTime" | "noInstruction";

export type Parsed = { when: When; instruction: string } | { error: WhenError };

const INTERVAL = /^(\d{1,6})(m|min|h)$/i;
const TIME = /^(\d{1,2}):(\d{2})$/;

/** `/every`'s arguments: `<when> <instruction>`; `now` anchors an interval. */
export function parseEvery(args: string, now: number): Parsed {
  const words = args.trim().split(/\s+/);
  const first = words[0] ?? "";
  if (first === "") return { error: "empty" };
  const interval = INTERVAL.exec(first);
  if (interval) {
    const minutes = Number(interval[1]) * (interval[2]!.toLowerCase() === "h" ? 60 : 1);
    if (minutes < 1) return { error: "tooShort" };
    if (minutes > MAX_INTERVAL_MINUTES) return { error: "tooLong" };
    return withInstruction({ kind: "interval", minutes, anchor: now }, words.slice(1));
  }
  const days = first.toLowerCase();
  if (days !== "day" && days !== "daily" && days !== "weekdays" && days !== "weekday") return { error: "badWhen" };
  const time = parseTime(words[1] ?? "");
  if (!time) return { error: "badTime" };
  return withInstruction({ kind: "daily", weekdays: days.startsWith("weekday"), ...time }, words.slice(2));
}

/** `/at`'s arguments: `<HH:MM> <instruction>`. */
export function parseAt(args: string): Parsed {
  const words = args.trim().split(/\s+/);
  if ((words[0] ?? "") === "") return { error: "empty" };
  const time = parseTime(words[0]!);
  if (!time) return { error: "badTime" };
  return withInstruction({ kind: "once", ...time }, words.slice(1));
}

function parseTime(text: string): { hour: number; minute: number } | undefined {
  const match = TIME.exec(text);
  if (!match) return undefined;
  const hour = Number(match[1]);
  const minute = Number(match[2]);
  return hour < 24 && minute < 60 ? { hour, minute } : undefined;
}

function withInstruction(when: When, rest: string[]): Parsed {
  const instruction = rest.join(" ").trim();
  return instruction === "" ? { error: "noInstruction" } : { when, instruction };
}

/** The first run strictly after `after` (ms since the epoch); an interval's minute lasts `minuteMs` (pace.ts). */
export function nextRun(when: When, after: number, minuteMs: number = MINUTE_MS): number {
  if (when.kind === "interval") {
    const every = when.minutes * minuteMs;
    if (after < when.anchor) return when.anchor + every;
    return when.anchor + (Math.floor((after - when.anchor) / every) + 1) * every;
  }
  const from = new Date(after);
  // Day by day from today's date, at the wall-clock time (Date resolves a skipped time forwards).
  for (let day = 0; day < 9; day++) {
    const at = new Date(from.getFullYear(), from.getMonth(), from.getDate() + day, when.hour, when.minute, 0, 0);
    if (at.getTime() <= after) continue;
    if (when.kind === "daily" && when.weekdays && isWeekend(at)) continue;
    return at.getTime();
  }
  // Unreachable: within nine days there is always a weekday whose time is ahead.
  throw new Error("no next run");
}

/** Whether it runs again after it ran at `ran` (`/at` runs once). */
export function runsAgain(when: When): boolean {
  return when.kind !== "once";
}

function isWeekend(date: Date): boolean {
  const day = date.getDay();
  return day === 0 || day === 6;
}

/** Checks a `When` read back from disk (untrusted shape). */
export function isWhen(value: unknown): value is When {
  if (typeof value !== "object" || value === null) return false;
  const when = value as Record<string, unknown>;
  if (when.kind === "interval") return isInt(when.minutes, 1, MAX_INTERVAL_MINUTES) && typeof when.anchor === "number" && Number.isFinite(when.anchor);
  const clock = isInt(when.hour, 0, 23) && isInt(when.minute, 0, 59);
  if (when.kind === "daily") return clock && typeof when.weekdays === "boolean";
  return when.kind === "once" && clock;
}

function isInt(value: unknown, min: number, max: number): boolean {
  return typeof value === "number" && Number.isInteger(value) && value >= min && value <= max;
}
