// A schedule in words (pure): when it runs ("every weekday at 09:00"), a moment in the machine's
// local time ("Mon 09:00", or with its date when more than six days away), and the machine's zone
// ("Europe/Berlin, UTC+01:00"). Plain text: the caller escapes what goes into Telegram HTML.
import type { Strings } from "../i18n/catalog.ts";
import type { When } from "./when.ts";

const DAY_MS = 86_400_000;

export function describeWhen(when: When, t: Strings): string {
  if (when.kind === "interval") return when.minutes % 60 === 0 ? t.schedule.everyHours(when.minutes / 60) : t.schedule.everyMinutes(when.minutes);
  const time = clock(when.hour, when.minute);
  if (when.kind === "once") return t.schedule.once(time);
  return when.weekdays ? t.schedule.weekdays(time) : t.schedule.daily(time);
}

/** A moment in local time: weekday and time within six days of `now`, else its date too. */
export function describeMoment(at: number, now: number, t: Strings): string {
  const date = new Date(at);
  const time = clock(date.getHours(), date.getMinutes());
  const day = t.schedule.days[date.getDay()] ?? "";
  if (Math.abs(at - now) < 6 * DAY_MS) return `${day} ${time}`;
  return `${day} ${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${time}`;
}

/** The machine's zone at `now`: its name (when the runtime knows it) and its offset from UTC. */
export function describeZone(now: number): string {
  const offset = -new Date(now).getTimezoneOffset();
  const sign = offset < 0 ? "−" : "+";
  const utc = `UTC${sign}${pad(Math.floor(Math.abs(offset) / 60))}:${pad(Math.abs(offset) % 60)}`;
  const name = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return name && name !== "UTC" ? `${name}, ${utc}` : utc;
}

function clock(hour: number, minute: number): string {
  return `${pad(hour)}:${pad(minute)}`;
}

function pad(value: number): string {
  return String(value).padStart(2, "0");
}
