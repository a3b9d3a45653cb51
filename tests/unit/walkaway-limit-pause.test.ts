// The usage-limit pause on a fake clock (lib/walkaway/limit-pause.ts, reset-time.ts).
import { describe, expect, it } from "vitest";
import { LimitPauses, RESUME_GRACE_MS } from "../../lib/walkaway/limit-pause.ts";
import { isLimitWords, MAX_RESET_MS, resetTimeIn } from "../../lib/walkaway/reset-time.ts";

const T0 = Date.parse("2026-12-02T01:58:00Z");
const QUOTA = "You have reached your usage limit. Your limit resets at 2026-12-02T04:11:00Z.";
const RESET = Date.parse("2026-12-02T04:11:00Z");

describe("the reset time in the provider's words", () => {
  it("reads an ISO time, a Unix time, a wait and a clock time; only ahead and within the bound", () => {
    expect(resetTimeIn(QUOTA, T0)).toBe(RESET);
    expect(resetTimeIn(`Claude AI usage limit reached|${RESET / 1000}`, T0)).toBe(RESET);
    expect(resetTimeIn("Rate limited. Try again in 2h 13m.", T0)).toBe(T0 + (2 * 60 + 13) * 60_000);
    expect(resetTimeIn("quota exceeded, retry in 20 seconds", T0)).toBe(T0 + 20_000);
    expect(resetTimeIn("Please try again in 1.5s", T0)).toBe(T0 + 1_500);
    const clock = resetTimeIn("You've hit your usage limit. Try again at 4:11 AM.", T0)!;
    const local = new Date(clock);
    expect([local.getHours(), local.getMinutes()]).toEqual([4, 11]);
    expect(clock).toBeGreaterThan(T0);
    expect(clock - T0).toBeLessThanOrEqual(24 * 3_600_000);
    expect(resetTimeIn("resets at 2026-12-01T00:00:00Z", T0)).toBeUndefined(); // passed
    expect(resetTimeIn(`resets at ${new Date(T0 + MAX_RESET_MS + 60_000).toISOString()}`, T0)).toBeUndefined();
    expect(resetTimeIn("Too many requests", T0)).toBeUndefined();
    expect(resetTimeIn("at 25:99", T0)).toBeUndefined();
  });

  it("tells a limit's words from other errors", () => {
    for (const words of [QUOTA, "Rate limit reached for requests", "Too many requests", "insufficient_quota", "429 usage_limit_reached"])
      expect(isLimitWords(words)).toBe(true);
    for (const words of ["Internal server error", "mock LLM failure (HTTP 500)", "Invalid API key"]) expect(isLimitWords(words)).toBe(false);
  });
});

describe("a pause", () => {
  it("OpenCode waits for a retry-after: one pause, edited only when its view changes, closed when the run moves", () => {
    const pauses = new LimitPauses<string>();
    const first = pauses.retrying("s1", "Rate limit reached", T0 + 20_000, T0);
    expect(first).toMatchObject({ sessionID: "s1", resumer: "opencode", resetAt: T0 + 20_000, held: [] });
    expect(pauses.retrying("s1", "Rate limit reached", T0 + 20_000, T0 + 1_000)).toBeUndefined(); // nothing new to show
    expect(pauses.hold("s1", "one")?.held).toEqual(["one"]);
    expect(pauses.hold("s1", "two")?.held).toEqual(["one", "two"]);
    expect(pauses.due(T0 + 3_600_000)).toEqual([]); // OpenCode resumes it, not Hermes
    const moved = pauses.moving("s1", T0 + 21_000)!;
    expect(moved.end).toEqual({ kind: "resumed-by-opencode", at: T0 + 21_000 });
    expect(moved.held).toEqual(["one", "two"]);
    expect(pauses.size).toBe(0);
    expect(pauses.moving("s1", T0 + 22_000)).toBeUndefined();
  });

  it("OpenCode gives up: Hermes resumes at the reset plus the grace, once", () => {
    const pauses = new LimitPauses<string>();
    for (let attempt = 1; attempt <= 5; attempt++) pauses.retrying("s1", QUOTA, T0 + attempt * 2_000, T0 + (attempt - 1) * 2_000);
    const paused = pauses.gaveUp("s1", QUOTA, T0 + 60_000);
    expect(paused).toMatchObject({ resumer: "hermes", resetAt: RESET, since: T0 });
    expect(pauses.nextDue()).toBe(RESET + RESUME_GRACE_MS);
    expect(pauses.moving("s1", T0 + 61_000)).toBeUndefined(); // nothing moves a pause Hermes resumes but Hermes
    expect(pauses.ended("s1", T0 + 61_000)).toBeUndefined(); // the idle after the error
    pauses.hold("s1", "later");
    expect(pauses.due(RESET + RESUME_GRACE_MS - 1)).toEqual([]);
    const [due, ...more] = pauses.due(RESET + RESUME_GRACE_MS);
    expect(more).toEqual([]);
    expect(due).toMatchObject({ abortFirst: false, sendContinue: true, pause: { held: ["later"], end: { kind: "resumed", at: RESET + RESUME_GRACE_MS } } });
    expect(pauses.due(RESET + 3_600_000)).toEqual([]);
    expect(pauses.nextDue()).toBeUndefined();
    expect(pauses.resumeNow("s1", RESET + 3_600_000)).toBeUndefined();
  });

  it("OpenCode gives up at once (2.0.15's quota error): the reset comes from the words", () => {
    const pauses = new LimitPauses<string>();
    expect(pauses.gaveUp("s1", QUOTA, T0)).toMatchObject({ resumer: "hermes", resetAt: RESET, since: T0 });
  });

  it("gives up after a retry-after that is still ahead: Hermes keeps OpenCode's time", () => {
    const pauses = new LimitPauses<string>();
    pauses.retrying("s1", "Too many requests", T0 + 600_000, T0);
    expect(pauses.gaveUp("s1", "Too many requests", T0 + 1_000)).toMatchObject({ resumer: "hermes", resetAt: T0 + 600_000 });
  });

  it("no reset time known: nobody resumes it, nothing is held, Resume now still works", () => {
    const pauses = new LimitPauses<string>();
    pauses.retrying("s1", "Too many requests", T0 + 2_000, T0);
    const paused = pauses.gaveUp("s1", "Too many requests", T0 + 70_000);
    expect(paused.resumer).toBe("nobody");
    expect(paused.resetAt).toBeUndefined();
    expect(pauses.hold("s1", "x")).toBeUndefined();
    expect(pauses.due(T0 + 100 * 3_600_000)).toEqual([]);
    expect(pauses.resumeNow("s1", T0 + 80_000)).toMatchObject({ abortFirst: false, sendContinue: true, pause: { end: { kind: "resumed-now" } } });
  });

  it("Resume now while OpenCode waits stops its wait first; Cancel stops it and sends nothing", () => {
    const pauses = new LimitPauses<string>();
    pauses.retrying("a", "Rate limit", T0 + 3_600_000, T0);
    pauses.hold("a", "held");
    expect(pauses.resumeNow("a", T0 + 5_000)).toMatchObject({ abortFirst: true, sendContinue: true, pause: { held: ["held"] } });
    pauses.retrying("b", "Rate limit", T0 + 3_600_000, T0);
    expect(pauses.cancel("b", T0 + 5_000)).toMatchObject({ abortFirst: true, sendContinue: false, pause: { end: { kind: "cancelled" } } });
    pauses.gaveUp("c", QUOTA, T0);
    expect(pauses.cancel("c", T0 + 5_000)).toMatchObject({ abortFirst: false, sendContinue: false });
    expect(pauses.cancel("c", T0 + 6_000)).toBeUndefined();
    expect(pauses.due(RESET + RESUME_GRACE_MS)).toEqual([]);
  });

  it("a run OpenCode was to resume ends otherwise (stopped at the terminal): the pause is over", () => {
    const pauses = new LimitPauses<string>();
    pauses.retrying("s1", "Rate limit", T0 + 3_600_000, T0);
    expect(pauses.ended("s1", T0 + 1_000)?.end?.kind).toBe("ended");
    pauses.gaveUp("s2", QUOTA, T0);
    expect(pauses.promptedElsewhere("s2", T0 + 1_000)?.end?.kind).toBe("ended");
    expect(pauses.open()).toEqual([]);
  });

  it("snapshots are values: changing one changes no pause", () => {
    const pauses = new LimitPauses<string>();
    const view = pauses.retrying("s1", "Rate limit", T0 + 20_000, T0)!;
    view.held.push("x");
    expect(pauses.get("s1")?.held).toEqual([]);
  });
});
