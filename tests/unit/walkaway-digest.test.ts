// The digest's log on a fake clock (lib/walkaway/digest-log.ts): what it keeps, and its bounds.
import { describe, expect, it } from "vitest";
import { decisionLogFields, DIGEST_MAX_AGE_MS, DIGEST_MAX_DECISIONS, DigestLog, type Decision } from "../../lib/walkaway/digest-log.ts";

const T0 = Date.parse("2026-12-01T22:00:00Z");
const H = 3_600_000;

const decision = (at: number, n: number, over: Partial<Decision> = {}): Decision => ({
  at,
  sessionID: "s1",
  requestID: `r${n}`,
  kind: "permission",
  asked: "bash: ls",
  answer: "once",
  answerKind: "once",
  source: { kind: "phone", by: "Ana" },
  ...over,
});

describe("the digest's log", () => {
  it("keeps runs with who started them, how they ended, cost and files; and decisions in order", () => {
    const log = new DigestLog();
    log.runStarted({ sessionID: "s1", directory: "/p", startedBy: "phone" }, T0);
    log.runStarted({ sessionID: "s1", directory: "/p", startedBy: "terminal" }, T0 + 1); // the same run, still going
    log.decided(decision(T0 + 10, 1, { kind: "question", asked: "Color?", answer: "Red" }), T0 + 10);
    log.decided(decision(T0 + 20, 2, { source: { kind: "session-rule", rule: "bash ls *" } }), T0 + 20);
    log.runUsage("s1", { cost: 0.12, filesChanged: 3 });
    log.runEnded("s1", "paused", T0 + 30);
    log.runStarted({ sessionID: "s1", directory: "/p", startedBy: "phone" }, T0 + 40); // resumed: a new run
    log.runEnded("s1", "done", T0 + 50);
    log.runStarted({ sessionID: "s2", startedBy: "schedule" }, T0 + 60);
    log.runEnded("s2", "failed", T0 + 70);
    log.runEnded("s2", "done", T0 + 71); // the idle after a failure: still failed
    log.titled("s1", "Fix the build");
    const all = log.slice(T0, T0 + 100);
    expect(all.runs.map((r) => [r.sessionID, r.startedBy, r.outcome, r.cost, r.filesChanged, r.title])).toEqual([
      ["s1", "phone", "paused", 0.12, 3, "Fix the build"],
      ["s1", "phone", "done", 0, 0, "Fix the build"],
      ["s2", "schedule", "failed", 0, 0, undefined],
    ]);
    expect(all.decisions.map((d) => d.requestID)).toEqual(["r1", "r2"]);
    expect(log.slice(T0, T0 + 100, "s2").decisions).toEqual([]);
    expect(log.slice(T0 + 45, T0 + 100).runs.map((r) => r.outcome)).toEqual(["done", "failed"]);
  });

  it("a run going on since before `since` is in it", () => {
    const log = new DigestLog();
    log.runStarted({ sessionID: "s1", startedBy: "terminal" }, T0);
    expect(log.slice(T0 + 5 * H, T0 + 6 * H).runs).toHaveLength(1);
  });

  it("bounded by age: a day", () => {
    const log = new DigestLog();
    log.decided(decision(T0, 1), T0);
    log.runStarted({ sessionID: "s1", startedBy: "phone" }, T0);
    log.runEnded("s1", "done", T0 + 1);
    expect(log.sizes).toEqual({ runs: 1, decisions: 1 });
    log.decided(decision(T0 + DIGEST_MAX_AGE_MS + 2, 2), T0 + DIGEST_MAX_AGE_MS + 2);
    expect(log.sizes).toEqual({ runs: 0, decisions: 1 });
    expect(log.slice(0, T0 + DIGEST_MAX_AGE_MS + 2).decisions.map((d) => d.requestID)).toEqual(["r2"]);
  });

  it("a week of busy runs stays within its bounds", () => {
    const log = new DigestLog();
    let n = 0;
    const most = { runs: 0, decisions: 0 };
    // A run every two minutes, each with five decisions, for a week.
    for (let t = T0, run = 0; t < T0 + 7 * 24 * H; t += 120_000, run++) {
      log.runStarted({ sessionID: `s${run}`, startedBy: "schedule" }, t);
      for (let i = 1; i <= 5; i++) log.decided(decision(t + i, n++, { sessionID: `s${run}` }), t + i);
      log.runEnded(`s${run}`, "done", t + 10);
      most.runs = Math.max(most.runs, log.sizes.runs);
      most.decisions = Math.max(most.decisions, log.sizes.decisions);
    }
    expect(most.decisions).toBe(DIGEST_MAX_DECISIONS);
    expect(most.runs).toBeLessThanOrEqual(24 * 30 + 1); // a day of runs
    expect(log.slice(0, T0 + 7 * 24 * H).runs.length).toBeLessThanOrEqual(24 * 30 + 1);
    const slice = log.slice(0, T0 + 7 * 24 * H);
    expect(slice.decisions).toHaveLength(DIGEST_MAX_DECISIONS);
    expect(slice.decisions.at(-1)!.at).toBeGreaterThan(T0 + 7 * 24 * H - 120_000);
  });

  it("a decision's log line names the session, the request, the answer and its source", () => {
    expect(decisionLogFields(decision(T0, 7, { source: { kind: "phone", by: "Ana" } }))).toEqual({
      decision: "permission",
      sessionID: "s1",
      requestID: "r7",
      asked: "bash: ls",
      answer: "once",
      source: "phone:Ana",
    });
    expect(decisionLogFields(decision(T0, 8, { source: { kind: "opencode-always" } })).source).toBe("opencode-always");
  });
});
