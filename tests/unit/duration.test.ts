import { describe, expect, it } from "vitest";
import { formatDuration, formatDurationDecimal, parseDuration } from "../../lib/i18n/duration.ts";
import { CATALOGS } from "../../lib/i18n/catalog.ts";

describe("parseDuration", () => {
  it("reads bare numbers as milliseconds", () => {
    expect(parseDuration("1500")).toBe(1500);
    expect(parseDuration("0")).toBe(0);
    expect(parseDuration("1")).toBe(1);
  });

  it.each([
    ["250ms", 250],
    ["90s", 90_000],
    ["30m", 1_800_000],
    ["2h", 7_200_000],
    ["0s", 0],
    ["0h", 0],
  ])("reads %s as %i ms", (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it("accepts upper-case and mixed-case units", () => {
    expect(parseDuration("90S")).toBe(90_000);
    expect(parseDuration("2H")).toBe(7_200_000);
    expect(parseDuration("5Ms")).toBe(5);
    expect(parseDuration("5MS")).toBe(5);
  });

  it("accepts surrounding whitespace and a space before the unit", () => {
    expect(parseDuration("  30m  ")).toBe(1_800_000);
    expect(parseDuration("30 m")).toBe(1_800_000);
    expect(parseDuration("\t90s\n")).toBe(90_000);
  });

  it("accepts decimals and rounds to whole milliseconds", () => {
    expect(parseDuration("1.5s")).toBe(1500);
    expect(parseDuration("0.5m")).toBe(30_000);
    expect(parseDuration("1.25h")).toBe(4_500_000);
    expect(parseDuration("1.4")).toBe(1);
    expect(parseDuration("1.5")).toBe(2);
    expect(parseDuration("0.0001s")).toBe(0);
  });

  it("treats leading zeros as decimal", () => {
    expect(parseDuration("007s")).toBe(7000);
  });

  it.each([
    "",
    "   ",
    "abc",
    "s",
    "m5",
    "-1",
    "-5s",
    "+5s",
    "1e3",
    "0x10",
    "1,5s",
    ".5s",
    "5.s",
    "1d",
    "1w",
    "10 minutes",
    "5sec",
    "5 s s",
    "1h30m",
    "NaN",
    "Infinity",
    "5xs",
    "５s", // full-width digit
  ])("rejects %j", (text) => {
    expect(parseDuration(text)).toBeUndefined();
  });

  it("rejects values beyond the safe integer range instead of returning imprecise numbers", () => {
    expect(parseDuration("9007199254740991")).toBe(Number.MAX_SAFE_INTEGER);
    expect(parseDuration("9007199254740993")).toBeUndefined();
    expect(parseDuration("99999999999999999999h")).toBeUndefined();
    expect(parseDuration("3000000000000h")).toBeUndefined();
    expect(parseDuration("9".repeat(400))).toBeUndefined();
  });

  it("stays fast on long malformed input", () => {
    const started = performance.now();
    expect(parseDuration(`${"1".repeat(50_000)}.${"1".repeat(50_000)}x`)).toBeUndefined();
    // Env values are short; trailing whitespace is quadratic in the regex, so keep this realistic.
    expect(parseDuration(`${" ".repeat(2_000)}1${" ".repeat(2_000)}q`)).toBeUndefined();
    expect(performance.now() - started).toBeLessThan(500);
  });
});

describe("formatDuration: whole units, in the chat's language", () => {
  it("rounds to seconds, then splits into minutes and hours", () => {
    expect([0, 499, 500, 59_499, 59_500, 90_000, 3_599_000, 3_600_000, 7_530_000].map((ms) => formatDuration(ms))).toEqual([
      "0 s",
      "0 s",
      "1 s",
      "59 s",
      "1 min 0 s",
      "1 min 30 s",
      "59 min 59 s",
      "1 h 0 min",
      "2 h 5 min",
    ]);
  });

  it("speaks Chinese with the Chinese catalog", () => {
    expect(formatDuration(90_000, CATALOGS.zh)).toBe("1 分 30 秒");
    expect(formatDuration(7_530_000, CATALOGS.zh)).toBe("2 小时 5 分");
  });
});

describe("formatDurationDecimal: one unit for the terminal", () => {
  it("keeps milliseconds under a second, one decimal of seconds under a minute, minutes beyond", () => {
    expect([250, 999, 1_000, 1_500, 59_940, 60_000, 150_000, 300_000, 5_400_000].map(formatDurationDecimal)).toEqual([
      "250 ms",
      "999 ms",
      "1 s",
      "1.5 s",
      "59.9 s",
      "1 min",
      "2.5 min",
      "5 min",
      "90 min",
    ]);
  });
});
