import { describe, expect, it } from "vitest";
import { ActivityTracker } from "../../lib/notices/activity.ts";
import type { NoticePolicy } from "../../lib/notices/policy.ts";
import type { HermesEvent } from "../../lib/hermes-events.ts";

const root = () => true;
const status = (status: string, extra: Partial<{ attempt: number; message: string }> = {}): HermesEvent => ({
  type: "session.status",
  sessionID: "s",
  status,
  ...extra,
});
const idle: HermesEvent = { type: "session.idle", sessionID: "s" };

function run(policy: NoticePolicy, steps: Array<[number, HermesEvent]>, isRoot = root) {
  const tracker = new ActivityTracker(policy);
  return { tracker, notices: steps.map(([at, event]) => tracker.observe(event, at, isRoot)).filter(Boolean) };
}

const all: NoticePolicy = { level: "all", doneAfterMs: 30_000 };

describe("ActivityTracker: the noise policy", () => {
  it("says Done after a run that worked long enough, with the last assistant text", () => {
    const { notices } = run(all, [
      [0, status("busy")],
      [1, { type: "message.role", sessionID: "s", messageID: "m1", role: "user" }],
      [2, { type: "message.text", sessionID: "s", messageID: "m1", partID: "p1", text: "user words" }],
      [3, { type: "message.role", sessionID: "s", messageID: "m2", role: "assistant" }],
      [4, { type: "message.text", sessionID: "s", messageID: "m2", partID: "p2", text: "I refactored the parser." }],
      [40_000, status("idle")],
      [40_001, idle],
    ]);
    expect(notices).toEqual([{ kind: "done", sessionID: "s", busyMs: 40_000, lastText: "I refactored the parser." }]);
  });

  it("stays quiet after a short run, and for sessions that were idle anyway", () => {
    expect(
      run(all, [
        [0, status("busy")],
        [5_000, idle],
      ]).notices,
    ).toEqual([]);
    expect(
      run(all, [
        [0, idle],
        [50_000, status("idle")],
      ]).notices,
    ).toEqual([]);
  });

  it("a run started from the phone always reports its end", () => {
    const tracker = new ActivityTracker(all);
    tracker.markFromPhone("s");
    tracker.observe(status("busy"), 0, root);
    expect(tracker.observe(idle, 2_000, root)).toMatchObject({ kind: "done", busyMs: 2_000 });
    // …but only that run.
    tracker.observe(status("busy"), 3_000, root);
    expect(tracker.observe(idle, 4_000, root)).toBeUndefined();
  });

  it("never reports sub-agent sessions", () => {
    expect(
      run(
        all,
        [
          [0, status("busy")],
          [60_000, idle],
        ],
        () => false,
      ).notices,
    ).toEqual([]);
    expect(run(all, [[0, { type: "session.error", sessionID: "s", name: "APIError", message: "boom" }]], () => false).notices).toEqual([]);
  });

  it("reports a failure once, and no Done for that run", () => {
    const { notices } = run(all, [
      [0, status("busy")],
      [1, { type: "session.error", sessionID: "s", name: "ProviderAuthError", message: "bad key" }],
      [60_000, idle],
    ]);
    expect(notices).toEqual([{ kind: "failed", sessionID: "s", name: "ProviderAuthError", message: "bad key" }]);
  });

  it("reports an error repeated just after the idle once (OpenCode 1.18), and one outside a run (1.1.53)", () => {
    const error: HermesEvent = { type: "session.error", sessionID: "s", name: "UnknownError", message: "Model not found" };
    expect(
      run(all, [
        [0, status("busy")],
        [1, error],
        [2, idle],
        [3, error],
      ]).notices,
    ).toHaveLength(1);
    expect(run(all, [[0, error]]).notices).toEqual([{ kind: "failed", sessionID: "s", name: "UnknownError", message: "Model not found" }]);
  });

  it("says nothing when the user pressed Esc (MessageAbortedError)", () => {
    expect(
      run(all, [
        [0, status("busy")],
        [50_000, { type: "session.error", sessionID: "s", name: "MessageAbortedError", message: "aborted" }],
        [50_001, idle],
      ]).notices,
    ).toEqual([]);
  });

  it("reports a retry loop once per run, not at every attempt", () => {
    const { notices } = run(all, [
      [0, status("busy")],
      [1, status("retry", { attempt: 1, message: "rate limited" })],
      [2, status("retry", { attempt: 2, message: "rate limited" })],
      [3, status("retry", { attempt: 3, message: "rate limited" })],
    ]);
    expect(notices).toEqual([{ kind: "retrying", sessionID: "s", attempt: 1, message: "rate limited" }]);
  });

  it("a usage limit has its own pause message: no retrying notice, no Failed, and no Done for the run it ended", () => {
    const { notices } = run(all, [
      [0, status("busy")],
      [1, { type: "session.status", sessionID: "s", status: "retry", attempt: 1, message: "Too many requests", next: 5, limit: true }],
      [70_000, { type: "session.error", sessionID: "s", name: "APIError", message: "Too many requests", limit: true }],
      [70_001, idle],
    ]);
    expect(notices).toEqual([]);
  });

  it("`errors` keeps failures and retries but drops Done; `off` drops everything", () => {
    const steps: Array<[number, HermesEvent]> = [
      [0, status("busy")],
      [1, status("retry", { attempt: 1 })],
      [60_000, idle],
      [60_001, status("busy")],
      [60_002, { type: "session.error", sessionID: "s", name: "APIError", message: "x" }],
    ];
    expect(run({ level: "errors", doneAfterMs: 0 }, steps).notices.map((n) => n!.kind)).toEqual(["retrying", "failed"]);
    expect(run({ level: "off", doneAfterMs: 0 }, steps).notices).toEqual([]);
  });

  it("knows which sessions are busy", () => {
    const tracker = new ActivityTracker(all);
    tracker.observe(status("busy"), 0, root);
    expect(tracker.isBusy("s")).toBe(true);
    tracker.observe(idle, 1, root);
    expect(tracker.isBusy("s")).toBe(false);
  });
});
