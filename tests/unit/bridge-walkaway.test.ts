// The usage-limit pause through the bridge on a fake clock (lib/bridge/walkaway/): OpenCode gave up,
// Hermes resumes at the reset plus the grace with `continue`, once; a process that stops before the
// reset loses the resume and says so in its log; a stranger's tap changes nothing.
import pino from "pino";
import { afterEach, describe, expect, it, vi } from "vitest";
import { setup } from "../support/bridge-rig.ts";

const T0 = Date.parse("2026-12-02T01:58:00Z");
const RESET = Date.parse("2026-12-02T04:11:00Z");
const WORDS = "You have reached your usage limit. Your limit resets at 2026-12-02T04:11:00Z.";

afterEach(() => {
  vi.useRealTimers();
});

describe("Bridge: a run held by a usage limit", () => {
  it("OpenCode gave up: one pause message, continue at the reset plus 5 s, once, and the message says Resumed", async () => {
    vi.useFakeTimers({ now: T0 });
    const { telegram, opencode, bridge, tap } = setup({ allowedUsers: [1001] });
    bridge.handleEvent("/home/dev/project", { type: "session.status", sessionID: "ses_1", status: "busy" });
    bridge.handleEvent("/home/dev/project", { type: "session.error", sessionID: "ses_1", name: "APIError", message: WORDS, limit: true });
    bridge.handleEvent("/home/dev/project", { type: "session.idle", sessionID: "ses_1" });
    const pause = await vi.waitFor(() => {
      const found = telegram.messages.find((m) => m.text.includes("Usage limit"));
      if (!found) throw new Error("no pause yet");
      return found;
    });
    expect(pause.text).toContain("resumes at");
    expect(pause.text).toContain("(in 2 h 13 min)");
    expect(pause.text).toContain("Hermes sends it <code>continue</code> then");
    expect(pause.keyboard.flat().map((b) => b.text)).toEqual(["▶ Resume now", "✖ Cancel"]);
    expect(telegram.messages.filter((m) => /Failed|retrying/.test(m.text))).toEqual([]);

    // A stranger's tap: nothing sent, the buttons stay.
    await tap(pause, "▶ Resume now", 666);
    const continues = () =>
      opencode.posts.filter((post) => post.url === "/session/{sessionID}/prompt_async" && JSON.stringify(post.body).includes('"continue"'));
    expect(continues()).toEqual([]);
    expect(pause.keyboard.flat()).toHaveLength(2);

    await vi.advanceTimersByTimeAsync(RESET + 5_000 - T0 - 1);
    expect(continues()).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    await vi.waitFor(() => expect(continues()).toHaveLength(1));
    await vi.waitFor(() => expect(pause.text).toContain("Resumed at"));
    expect(pause.keyboard.flat()).toEqual([]);
    await vi.advanceTimersByTimeAsync(24 * 3_600_000);
    expect(continues()).toHaveLength(1);
    await bridge.stop(10);
  });

  it("a process that stops before the reset loses the resume, and its log says so", async () => {
    vi.useFakeTimers({ now: T0 });
    const lines: string[] = [];
    const logger = pino({ level: "info" }, { write: (line: string) => void lines.push(line) });
    const { telegram, opencode, bridge } = setup({ logger });
    bridge.handleEvent("/home/dev/project", { type: "session.error", sessionID: "ses_1", name: "provider.quota", message: WORDS, limit: true });
    await vi.waitFor(() => {
      if (!telegram.messages.some((m) => m.text.includes("Usage limit"))) throw new Error("no pause yet");
    });
    await bridge.stop(10);
    expect(lines.some((line) => line.includes("a pending resume is lost"))).toBe(true);
    await vi.advanceTimersByTimeAsync(RESET + 60_000 - T0);
    expect(opencode.posts.filter((post) => JSON.stringify(post.body ?? "").includes('"continue"'))).toEqual([]);
  });
});
