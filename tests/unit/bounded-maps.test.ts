// Hermes lives as long as OpenCode does (days): what it remembers per session, run or message is
// bounded, the oldest forgotten first, and what is still in use is kept (bench/week.ts measures the
// whole bridge over 1,000 runs).
import { describe, expect, it } from "vitest";
import { ActivityTracker, SESSIONS_KEPT as ACTIVITY_KEPT } from "../../lib/notices/activity.ts";
import { RUNS_KEPT, RunChanges } from "../../lib/registry/run-changes.ts";
import { SESSIONS_KEPT, SessionIndex } from "../../lib/registry/sessions.ts";

const root = () => true;

describe("bounded memory", () => {
  it("the session index keeps the sessions heard of last; one heard of again stays", () => {
    const sessions = new SessionIndex();
    sessions.upsert({ id: "ses_old", title: "kept", parentID: "ses_parent" });
    for (let i = 0; i < SESSIONS_KEPT * 3; i++) {
      sessions.upsert({ id: `ses_${i}`, title: `t${i}` });
      if (i % 100 === 0) sessions.upsert({ id: "ses_old" }); // still in use: heard of again
    }
    expect(sessions.size).toBe(SESSIONS_KEPT);
    expect(sessions.get("ses_0")).toBeUndefined();
    expect(sessions.title(`ses_${SESSIONS_KEPT * 3 - 1}`)).toBe(`t${SESSIONS_KEPT * 3 - 1}`);
    expect(sessions.get("ses_old")).toEqual({ id: "ses_old", title: "kept", parentID: "ses_parent" });
  });

  it("the activity tracker drops a run's messages and text at its end, and keeps only the idle sessions heard of last; busy ones always", () => {
    const activity = new ActivityTracker({ level: "all", doneAfterMs: 0 });
    let now = 0;
    activity.observe({ type: "session.status", sessionID: "ses_long", status: "busy" }, now, root);
    for (let i = 0; i < ACTIVITY_KEPT * 3; i++) {
      const sessionID = `ses_${i}`;
      activity.observe({ type: "session.status", sessionID, status: "busy" }, ++now, root);
      activity.observe({ type: "message.role", sessionID, messageID: `m${i}`, role: "assistant" }, ++now, root);
      activity.observe({ type: "message.text", sessionID, messageID: `m${i}`, partID: "p", text: `answer ${i}` }, ++now, root);
      const done = activity.observe({ type: "session.idle", sessionID }, ++now, root);
      expect(done).toMatchObject({ kind: "done", lastText: `answer ${i}` });
    }
    expect(activity.size).toBe(ACTIVITY_KEPT);
    expect(activity.isBusy("ses_long")).toBe(true);
    // The next run of a session starts without the last one's text.
    const last = `ses_${ACTIVITY_KEPT * 3 - 1}`;
    activity.observe({ type: "session.status", sessionID: last, status: "busy" }, ++now, root);
    expect(activity.observe({ type: "session.idle", sessionID: last }, ++now, root)).not.toHaveProperty("lastText");
  });

  it("run changes (whole files on 1.1.53) are kept for the sessions that started a run last", () => {
    const changes = new RunChanges();
    for (let i = 0; i < RUNS_KEPT * 4; i++) {
      changes.note(`ses_${i}`, `msg_${i}`, [{ file: `f${i}`, additions: 1, deletions: 0, after: "x".repeat(1_000) }]);
      changes.end(`ses_${i}`);
    }
    expect(changes.size).toBe(RUNS_KEPT);
    expect(changes.of("ses_0")).toEqual([]);
    expect(changes.of(`ses_${RUNS_KEPT * 4 - 1}`)).toHaveLength(1);
  });
});
