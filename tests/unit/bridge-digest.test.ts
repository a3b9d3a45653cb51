// /digest through the bridge, without OpenCode (lib/bridge/walkaway/digest-feed.ts, digest-command.ts):
// a run with a question answered on the phone, an Allow once, Allow in this session and the rule's
// auto-allow, a rejection, a question answered at the terminal, a timeout; each listed with its
// source, one `decision` log line each; a stranger's /digest shows nothing; `/digest 8h` and a reply
// for one session; a bad span says how to use it.
import pino from "pino";
import { describe, expect, it, vi } from "vitest";
import { permission, question, request, setup } from "../support/bridge-rig.ts";

const DIR = "/home/dev/project";

function logged() {
  const lines: Record<string, unknown>[] = [];
  const logger = pino({ level: "info" }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  return { lines, logger };
}

describe("Bridge: /digest", () => {
  it("counts the files a run changed, read after its end (a short run without a Done notice too)", async () => {
    const { telegram, bridge, say } = setup({ allowedUsers: [1001] });
    bridge.handleEvent(DIR, { type: "session.upserted", info: { id: "ses_f", title: "Edit two", directory: DIR } });
    bridge.handleEvent(DIR, { type: "session.status", sessionID: "ses_f", status: "busy" });
    const changes = [
      { file: "src/a.ts", additions: 2, deletions: 1 },
      { file: "src/b.ts", additions: 5, deletions: 0 },
    ];
    bridge.handleEvent(DIR, { type: "message.role", sessionID: "ses_f", messageID: "msg_u1", role: "user", changes });
    bridge.handleEvent(DIR, { type: "session.idle", sessionID: "ses_f" });
    await vi.waitFor(async () => {
      await say("/digest");
      const found = [...telegram.messages].reverse().find((m) => m.text.includes("Since"));
      expect(found?.text).toMatch(/▶ \d\d:\d\d at the terminal · done · 2 files/);
    });
  });

  it("lists the run and every decision with who or what decided it; the log has one decision line each", async () => {
    const { lines, logger } = logged();
    const { telegram, opencode, bridge, ask, askPermission, tap, say } = setup({ allowedUsers: [1001], logger });
    bridge.handleEvent(DIR, { type: "session.upserted", info: { id: "ses_1", title: "Fix the tests", directory: DIR } });
    bridge.handleEvent(DIR, { type: "session.status", sessionID: "ses_1", status: "busy" });

    const q = await ask(request([question()]));
    await tap(q, "Red");
    await vi.waitFor(() => expect(q.keyboard).toEqual([]));

    const once = await askPermission(permission({ id: "per_once", patterns: ["ls -la"], metadata: { command: "ls -la" }, always: ["ls *"] }));
    await tap(once, "Allow once");
    await vi.waitFor(() => expect(once.keyboard).toEqual([]));

    const first = await askPermission(permission({ id: "per_rule", patterns: ["npm test"], metadata: { command: "npm test" }, always: ["npm test *"] }));
    await tap(first, "✅ Allow in this session");
    await vi.waitFor(() => expect(telegram.messages.find((m) => m.messageId === first.messageId)?.text).toContain("Allowed in this session</b>"));
    opencode.announce({
      type: "permission.asked",
      request: permission({ id: "per_auto", patterns: ["npm test -- -t x"], metadata: { command: "npm test -- -t x" }, always: ["npm test *"] }),
    });
    await vi.waitFor(() => expect(lines.some((line) => line.requestID === "per_auto" && line.msg === "decision")).toBe(true));

    const no = await askPermission(permission({ id: "per_no", patterns: ["rm -rf build"], metadata: { command: "rm -rf build" }, always: ["rm *"] }));
    await tap(no, "Reject");
    await vi.waitFor(() => expect(no.keyboard).toEqual([]));

    const desk = await ask({ id: "que_desk", sessionID: "ses_1", questions: [question({ question: "Which size?" })] });
    bridge.handleEvent(DIR, { type: "question.replied", sessionID: "ses_1", requestID: "que_desk", answers: [["Large"]] });
    await vi.waitFor(() => expect(desk.keyboard).toEqual([]));
    bridge.handleEvent(DIR, { type: "session.idle", sessionID: "ses_1" });

    // A stranger's /digest: nothing at all.
    const before = telegram.messages.length;
    await say("/digest", undefined, 666);
    expect(telegram.messages.length).toBe(before);

    await say("/digest");
    const digest = await vi.waitFor(() => {
      const found = telegram.messages.find((m) => m.text.includes("Since"));
      if (!found) throw new Error("no digest yet");
      return found;
    });
    const text = digest.text;
    expect(text).toContain("📁 <b>project</b>");
    expect(text).toContain("<i>Fix the tests</i>");
    expect(text).toMatch(/▶ \d\d:\d\d at the terminal · done/);
    expect(text).toMatch(/❓ Which color\? → Red · U on the phone/);
    expect(text).toMatch(/🔐 bash: ls -la → allowed once · U on the phone/);
    expect(text).toMatch(/🔐 bash: npm test → allowed once · U on the phone/);
    expect(text).toMatch(/🔐 bash: npm test -- -t x → allowed once · Allow in this session \(npm test\)/);
    expect(text).toMatch(/🔐 bash: rm -rf build → rejected · U on the phone/);
    expect(text).toMatch(/❓ Which size\? → Large · the terminal/);
    // In order.
    const order = ["Which color", "ls -la", "npm test →", "-t x", "rm -rf build", "Which size"].map((part) => text.indexOf(part));
    expect([...order].sort((a, b) => a - b)).toEqual(order);

    const decisions = lines.filter((line) => line.msg === "decision");
    expect(decisions.map((line) => [line.requestID, line.source])).toEqual([
      [expect.stringMatching(/^que_/), "phone:U"],
      ["per_once", "phone:U"],
      ["per_rule", "phone:U"],
      ["per_auto", "session-rule:npm test"],
      ["per_no", "phone:U"],
      ["que_desk", "terminal"],
    ]);
    expect(decisions[0]).toMatchObject({ decision: "question", sessionID: "ses_1", asked: "Which color?", answer: "Red" });
    await bridge.stop(10);
  });

  it("a timeout and a stopped run's prompt say so; /digest 8h and a reply for one session; a bad span answers how to use it", async () => {
    vi.useFakeTimers({ now: Date.parse("2026-12-02T01:00:00Z") });
    try {
      const { telegram, opencode, bridge, ask, say } = setup({ allowedUsers: [1001], ttlMs: 60_000 });
      bridge.handleEvent(DIR, { type: "session.status", sessionID: "ses_1", status: "busy" });
      const q = await ask(request([question({ question: "Anyone there?" })]));
      await vi.advanceTimersByTimeAsync(61_000);
      await vi.waitFor(() => expect(q.keyboard).toEqual([]));
      bridge.handleEvent(DIR, { type: "session.error", sessionID: "ses_1", name: "APIError", message: "boom" });
      bridge.handleEvent(DIR, { type: "session.idle", sessionID: "ses_1" });
      bridge.handleEvent(DIR, { type: "session.status", sessionID: "ses_2", status: "busy" });
      bridge.handleEvent(DIR, { type: "session.idle", sessionID: "ses_2" });
      // A reply to the session's message starts its next run from the phone.
      await say("try again", q.messageId);
      await vi.advanceTimersByTimeAsync(100);
      await vi.waitFor(() => expect(opencode.posts.some((post) => post.url === "/session/{sessionID}/prompt_async")).toBe(true));
      bridge.handleEvent(DIR, { type: "session.status", sessionID: "ses_1", status: "busy" });
      bridge.handleEvent(DIR, { type: "session.idle", sessionID: "ses_1" });

      await say("/digest 8h");
      const digest = await vi.waitFor(() => {
        const found = telegram.messages.find((m) => m.text.includes("Since"));
        if (!found) throw new Error("no digest yet");
        return found;
      });
      expect(digest.text).toContain("(8 h 0 min)");
      expect(digest.text).toMatch(/▶ \d\d:\d\d at the terminal · failed/);
      expect(digest.text).toMatch(/▶ \d\d:\d\d from the phone · done/);
      expect(digest.text).toMatch(/❓ Anyone there\? → dismissed · nobody in time/);
      expect(digest.text).toContain("<i>ses_2</i>");

      // As a reply to the session's question: that session alone.
      await say("/digest", q.messageId);
      const one = await vi.waitFor(() => {
        const found = telegram.messages.filter((m) => m.text.includes("Since"));
        if (found.length < 2) throw new Error("no second digest yet");
        return found[1]!;
      });
      expect(one.text).toContain("Anyone there?");
      expect(one.text).not.toContain("ses_2");

      await say("/digest soon");
      await vi.waitFor(() => expect(telegram.messages.some((m) => m.text.includes("<code>/digest 8h</code>"))).toBe(true));
      await bridge.stop(10);
    } finally {
      vi.useRealTimers();
    }
  });
});
