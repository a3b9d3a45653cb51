// A schedule's minute: a real minute for every user; the tests' shorter minute only with the fake
// Telegram on loopback, and the time rules, the claim and the wake-up timer all follow it.
import { describe, expect, it } from "vitest";
import { claimDue, nextLook } from "../../lib/schedules/due.ts";
import { MINUTE_MS, paceOf, REAL_PACE, schedulePace, TEST_MINUTE_VARIABLE } from "../../lib/schedules/pace.ts";
import type { Schedule } from "../../lib/schedules/schedule.ts";
import { nextRun } from "../../lib/schedules/when.ts";

const LOOPBACK = "http://127.0.0.1:4321";

describe("a schedule's minute", () => {
  it("is a real minute unless the test variable is set", () => {
    expect(schedulePace({}, LOOPBACK)).toEqual({ pace: REAL_PACE });
    expect(REAL_PACE).toEqual({ minuteMs: MINUTE_MS, lateLimitMs: MINUTE_MS, recheckMs: MINUTE_MS / 2 });
  });

  it("takes a test minute with the fake Telegram on loopback", () => {
    for (const root of [LOOPBACK, "http://localhost:9/", "http://[::1]:80"])
      expect(schedulePace({ [TEST_MINUTE_VARIABLE]: "8000" }, root)).toEqual({ pace: { minuteMs: 8_000, lateLimitMs: 8_000, recheckMs: 4_000 } });
  });

  it("refuses it with a real Telegram, over https, or out of range, and keeps real minutes", () => {
    const cases: Array<[string, string]> = [
      ["8000", "https://api.telegram.org"],
      ["8000", "https://127.0.0.1:8081"],
      ["8000", "http://10.0.0.5:8081"],
      ["8000", "http://127.0.0.1.example.com"],
      ["1999", LOOPBACK],
      ["60001", LOOPBACK],
      ["8.5", LOOPBACK],
      ["soon", LOOPBACK],
    ];
    for (const [value, root] of cases) {
      const chosen = schedulePace({ [TEST_MINUTE_VARIABLE]: value }, root);
      expect(chosen.pace).toEqual(REAL_PACE);
      expect(chosen.refused).toContain(TEST_MINUTE_VARIABLE);
    }
  });

  it("moves the next run, the late limit and the next look together", () => {
    const pace = paceOf(5_000);
    const when = { kind: "interval" as const, minutes: 2, anchor: 1_000 };
    expect(nextRun(when, 1_000, pace.minuteMs)).toBe(11_000);
    expect(nextRun(when, 1_000)).toBe(1_000 + 2 * MINUTE_MS);
    const schedule: Schedule = { id: "a", bot: "b", chatId: 1, directory: "/p", when, instruction: "go", next: 11_000, created: 1_000 };
    const here = { bot: "b", chatId: 1, directories: ["/p"] };
    const inTime = claimDue([schedule], here, 11_000 + 5_000, pace);
    expect(inTime.runs).toHaveLength(1);
    expect(inTime.schedules[0]!.next).toBe(21_000);
    expect(claimDue([schedule], here, 11_000 + 5_001, pace).missed).toHaveLength(1);
    expect(nextLook([schedule], { ...here, directories: [] }, pace.lateLimitMs)).toBe(11_000 + 5_001);
  });
});
