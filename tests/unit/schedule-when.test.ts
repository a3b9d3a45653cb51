// The time rules of scheduled runs (lib/schedules/when.ts, describe.ts) on a fake clock: every
// moment is a number handed in, never the machine's clock. Local time is the process' zone, so
// each block sets TZ (Node re-reads it when it is assigned) and puts it back after.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CATALOGS } from "../../lib/i18n/catalog.ts";
import { describeMoment, describeWhen, describeZone } from "../../lib/schedules/describe.ts";
import { isWhen, nextRun, parseAt, parseEvery, runsAgain, type When } from "../../lib/schedules/when.ts";

const MIN = 60_000;
const en = CATALOGS.en;

function inZone(zone: string): void {
  const before = process.env.TZ;
  beforeAll(() => {
    process.env.TZ = zone;
  });
  afterAll(() => {
    if (before === undefined) delete process.env.TZ;
    else process.env.TZ = before;
  });
}

/** A local wall-clock moment in the current zone. */
function local(y: number, m: number, d: number, h: number, min: number): number {
  return new Date(y, m - 1, d, h, min, 0, 0).getTime();
}

/** The local wall clock of a moment, as "YYYY-MM-DD HH:MM Day". */
function wall(at: number): string {
  const d = new Date(at);
  const p = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())} ${en.schedule.days[d.getDay()]}`;
}

describe("parsing /every and /at", () => {
  const now = Date.UTC(2026, 10, 27, 12, 0);
  it("takes intervals in minutes and hours, at least a minute, at most a week", () => {
    expect(parseEvery("30m run the tests", now)).toEqual({ when: { kind: "interval", minutes: 30, anchor: now }, instruction: "run the tests" });
    expect(parseEvery("2h  summarise   today", now)).toEqual({ when: { kind: "interval", minutes: 120, anchor: now }, instruction: "summarise today" });
    expect(parseEvery("1m x", now)).toMatchObject({ when: { minutes: 1 } });
    expect(parseEvery("0m x", now)).toEqual({ error: "tooShort" });
    expect(parseEvery("169h x", now)).toEqual({ error: "tooLong" });
    expect(parseEvery("30s x", now)).toEqual({ error: "badWhen" });
    expect(parseEvery("-5m x", now)).toEqual({ error: "badWhen" });
  });
  it("takes a time of day every day or on weekdays", () => {
    expect(parseEvery("day 09:00 run the tests", now)).toEqual({ when: { kind: "daily", weekdays: false, hour: 9, minute: 0 }, instruction: "run the tests" });
    expect(parseEvery("weekdays 9:05 go", now)).toEqual({ when: { kind: "daily", weekdays: true, hour: 9, minute: 5 }, instruction: "go" });
    expect(parseEvery("day 24:00 x", now)).toEqual({ error: "badTime" });
    expect(parseEvery("day 09:60 x", now)).toEqual({ error: "badTime" });
    expect(parseEvery("weekdays x", now)).toEqual({ error: "badTime" });
    expect(parseEvery("monday 09:00 x", now)).toEqual({ error: "badWhen" });
  });
  it("needs an instruction, and /at needs a time", () => {
    expect(parseEvery("", now)).toEqual({ error: "empty" });
    expect(parseEvery("30m", now)).toEqual({ error: "noInstruction" });
    expect(parseEvery("day 09:00   ", now)).toEqual({ error: "noInstruction" });
    expect(parseAt("18:00 summarise today's commits")).toEqual({ when: { kind: "once", hour: 18, minute: 0 }, instruction: "summarise today's commits" });
    expect(parseAt("6pm x")).toEqual({ error: "badTime" });
    expect(parseAt("18:00")).toEqual({ error: "noInstruction" });
    expect(parseAt("  ")).toEqual({ error: "empty" });
  });
  it("checks a When read back from disk", () => {
    expect(isWhen({ kind: "interval", minutes: 30, anchor: 5 })).toBe(true);
    expect(isWhen({ kind: "interval", minutes: 0, anchor: 5 })).toBe(false);
    expect(isWhen({ kind: "daily", weekdays: true, hour: 9, minute: 0 })).toBe(true);
    expect(isWhen({ kind: "daily", weekdays: "yes", hour: 9, minute: 0 })).toBe(false);
    expect(isWhen({ kind: "once", hour: 25, minute: 0 })).toBe(false);
    expect(isWhen(null)).toBe(false);
    expect(runsAgain({ kind: "once", hour: 1, minute: 0 })).toBe(false);
  });
});

describe("the next run, in Europe/Berlin", () => {
  inZone("Europe/Berlin");

  it("an interval counts from when it was made, whatever the wall clock does", () => {
    const when: When = { kind: "interval", minutes: 30, anchor: local(2026, 3, 29, 1, 10) };
    expect(nextRun(when, when.anchor)).toBe(when.anchor + 30 * MIN);
    expect(nextRun(when, when.anchor + 29 * MIN)).toBe(when.anchor + 30 * MIN);
    expect(nextRun(when, when.anchor + 30 * MIN)).toBe(when.anchor + 60 * MIN);
    // Across the spring-forward (02:00 → 03:00): 30 real minutes apart, 01:40 then 03:10 on the wall.
    expect(wall(nextRun(when, when.anchor + 30 * MIN))).toBe("2026-03-29 03:10 Sun");
    // Long after (the process was not running): the next one still on the grid.
    expect(nextRun(when, when.anchor + 1_000 * MIN + 1)).toBe(when.anchor + 1_020 * MIN);
  });

  it("a time of day: later today, else tomorrow, across midnight", () => {
    const daily: When = { kind: "daily", weekdays: false, hour: 9, minute: 0 };
    expect(wall(nextRun(daily, local(2026, 11, 27, 8, 59)))).toBe("2026-11-27 09:00 Fri");
    expect(wall(nextRun(daily, local(2026, 11, 27, 9, 0)))).toBe("2026-11-28 09:00 Sat");
    expect(wall(nextRun(daily, local(2026, 12, 31, 23, 59)))).toBe("2027-01-01 09:00 Fri");
    const midnight: When = { kind: "daily", weekdays: false, hour: 0, minute: 0 };
    expect(wall(nextRun(midnight, local(2026, 11, 27, 23, 59)))).toBe("2026-11-28 00:00 Sat");
    expect(wall(nextRun({ kind: "once", hour: 0, minute: 5 }, local(2026, 11, 27, 23, 30)))).toBe("2026-11-28 00:05 Sat");
  });

  it("weekdays skip Saturday and Sunday", () => {
    const weekdays: When = { kind: "daily", weekdays: true, hour: 9, minute: 0 };
    expect(wall(nextRun(weekdays, local(2026, 11, 27, 9, 30)))).toBe("2026-11-30 09:00 Mon"); // Friday after 9
    expect(wall(nextRun(weekdays, local(2026, 11, 28, 7, 0)))).toBe("2026-11-30 09:00 Mon"); // Saturday
    expect(wall(nextRun(weekdays, local(2026, 11, 29, 23, 0)))).toBe("2026-11-30 09:00 Mon"); // Sunday night
    expect(wall(nextRun(weekdays, local(2026, 11, 30, 8, 0)))).toBe("2026-11-30 09:00 Mon");
    expect(wall(nextRun(weekdays, local(2026, 11, 30, 9, 0)))).toBe("2026-12-01 09:00 Tue");
  });

  it("across the spring-forward night a time of day keeps its wall clock; a skipped time runs when the clocks reach it", () => {
    const nine: When = { kind: "daily", weekdays: false, hour: 9, minute: 0 };
    const saturday = nextRun(nine, local(2026, 3, 28, 8, 0));
    const sunday = nextRun(nine, saturday);
    expect(wall(sunday)).toBe("2026-03-29 09:00 Sun");
    expect(sunday - saturday).toBe(23 * 60 * MIN); // a 23-hour day
    const skipped: When = { kind: "daily", weekdays: false, hour: 2, minute: 30 };
    const onTheNight = nextRun(skipped, local(2026, 3, 29, 0, 0));
    expect(wall(onTheNight)).toBe("2026-03-29 03:30 Sun");
    expect(wall(nextRun(skipped, onTheNight))).toBe("2026-03-30 02:30 Mon");
  });

  it("across the fall-back night a repeated time runs once", () => {
    const repeated: When = { kind: "daily", weekdays: false, hour: 2, minute: 30 };
    const first = nextRun(repeated, local(2026, 10, 25, 0, 0));
    expect(wall(first)).toBe("2026-10-25 02:30 Sun");
    const after = nextRun(repeated, first);
    expect(wall(after)).toBe("2026-10-26 02:30 Mon");
    expect(after - first).toBe(25 * 60 * MIN); // the second 02:30 of that night is skipped
    // A moment during the repeated hour (the second 02:40) does not run it again that night.
    expect(wall(nextRun(repeated, first + 70 * MIN))).toBe("2026-10-26 02:30 Mon");
  });

  it("says it in words, with the zone", () => {
    const now = local(2026, 11, 27, 12, 0); // a Friday
    expect(describeWhen({ kind: "daily", weekdays: true, hour: 9, minute: 0 }, en)).toBe("every weekday at 09:00");
    expect(describeWhen({ kind: "daily", weekdays: false, hour: 7, minute: 5 }, en)).toBe("every day at 07:05");
    expect(describeWhen({ kind: "once", hour: 18, minute: 0 }, en)).toBe("once at 18:00");
    expect(describeWhen({ kind: "interval", minutes: 30, anchor: 0 }, en)).toBe("every 30 min");
    expect(describeWhen({ kind: "interval", minutes: 120, anchor: 0 }, en)).toBe("every 2 h");
    expect(describeWhen({ kind: "interval", minutes: 1, anchor: 0 }, en)).toBe("every minute");
    expect(describeWhen({ kind: "daily", weekdays: true, hour: 9, minute: 0 }, CATALOGS.zh)).toBe("每个工作日 09:00");
    expect(describeMoment(local(2026, 11, 30, 9, 0), now, en)).toBe("Mon 09:00");
    expect(describeMoment(local(2026, 12, 25, 9, 0), now, en)).toBe("Fri 2026-12-25 09:00");
    expect(describeZone(now)).toBe("Europe/Berlin, UTC+01:00");
    expect(describeZone(local(2026, 7, 1, 12, 0))).toBe("Europe/Berlin, UTC+02:00");
  });
});

describe("the next run, in America/New_York", () => {
  inZone("America/New_York");

  it("a weekday time across the spring-forward weekend and the fall-back weekend", () => {
    const weekdays: When = { kind: "daily", weekdays: true, hour: 9, minute: 0 };
    const friday = local(2026, 3, 6, 9, 0);
    const monday = nextRun(weekdays, friday);
    expect(wall(monday)).toBe("2026-03-09 09:00 Mon");
    expect(monday - friday).toBe((3 * 24 - 1) * 60 * MIN); // the clocks went forward on Sunday 8 March
    const autumnFriday = local(2026, 10, 30, 9, 0);
    const autumnMonday = nextRun(weekdays, autumnFriday);
    expect(wall(autumnMonday)).toBe("2026-11-02 09:00 Mon");
    expect(autumnMonday - autumnFriday).toBe((3 * 24 + 1) * 60 * MIN); // back on Sunday 1 November
    expect(describeZone(autumnMonday)).toBe("America/New_York, UTC−05:00");
  });

  it("/at a time the spring-forward skips runs at the same moment the clocks jump to", () => {
    const at: When = { kind: "once", hour: 2, minute: 15 };
    expect(wall(nextRun(at, local(2026, 3, 8, 1, 0)))).toBe("2026-03-08 03:15 Sun");
  });
});
