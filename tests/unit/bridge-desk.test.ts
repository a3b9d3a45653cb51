// HERMES_DESK_DELAY through the bridge on a fake clock (lib/bridge/walkaway/desk-quiet.ts): after a
// run started at the desk (no prompt from the phone), a new question waits the delay before it
// reaches the phone, and never reaches it when answered at the desk meanwhile; /away sends the one
// waiting at once and makes the next one immediate, until the next sign of the desk; the Done
// notice of a run started at the desk goes silently; a stranger's /away changes nothing; unset,
// nothing waits.
import { afterEach, describe, expect, it, vi } from "vitest";
import { DESK_WINDOW_MS, DeskPresence } from "../../lib/walkaway/desk-presence.ts";
import { question, request, setup } from "../support/bridge-rig.ts";

const DIR = "/home/dev/project";
const T0 = Date.parse("2026-12-02T01:00:00Z");

afterEach(() => {
  vi.useRealTimers();
});

describe("the desk's presence", () => {
  it("a sign counts five minutes; /away ends it until the next sign", () => {
    const desk = new DeskPresence();
    expect(desk.atDesk(T0)).toBe(false);
    desk.sign(T0);
    expect(desk.atDesk(T0 + DESK_WINDOW_MS - 1)).toBe(true);
    expect(desk.atDesk(T0 + DESK_WINDOW_MS)).toBe(false);
    desk.away(T0 + 10);
    expect(desk.atDesk(T0 + 20)).toBe(false);
    desk.sign(T0 + 30);
    expect(desk.atDesk(T0 + 40)).toBe(true);
  });
});

describe("Bridge: quiet while at the desk (HERMES_DESK_DELAY)", () => {
  const shown = (telegram: { messages: { text: string }[] }, marker: string) => telegram.messages.some((m) => m.text.includes(marker));

  it("a question after a run started at the desk waits, never comes when answered there; /away makes it immediate", async () => {
    vi.useFakeTimers({ now: T0 });
    const { telegram, bridge, say } = setup({ allowedUsers: [1001], deskDelayMs: 20_000 });
    bridge.handleEvent(DIR, { type: "session.status", sessionID: "ses_1", status: "busy" });

    bridge.handleEvent(DIR, { type: "question.asked", request: { id: "que_desk", sessionID: "ses_1", questions: [question({ question: "At the desk?" })] } });
    await vi.advanceTimersByTimeAsync(15_000);
    expect(shown(telegram, "At the desk?")).toBe(false);
    bridge.handleEvent(DIR, { type: "question.replied", sessionID: "ses_1", requestID: "que_desk", answers: [["Red"]] });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(shown(telegram, "At the desk?")).toBe(false);

    // The next one waits too (the answer at the desk was a sign of it); /away sends it now.
    bridge.handleEvent(DIR, { type: "question.asked", request: { id: "que_wait", sessionID: "ses_1", questions: [question({ question: "Still there?" })] } });
    await vi.advanceTimersByTimeAsync(5_000);
    expect(shown(telegram, "Still there?")).toBe(false);
    await say("/away", undefined, 666);
    await vi.advanceTimersByTimeAsync(100);
    expect(shown(telegram, "Still there?")).toBe(false);
    await say("/away");
    await vi.waitFor(() => expect(shown(telegram, "Still there?")).toBe(true));
    expect(shown(telegram, "Away from the desk")).toBe(true);

    // After /away the next one is immediate.
    bridge.handleEvent(DIR, { type: "question.asked", request: { id: "que_now", sessionID: "ses_1", questions: [question({ question: "Right away?" })] } });
    await vi.advanceTimersByTimeAsync(100);
    expect(shown(telegram, "Right away?")).toBe(true);
    await bridge.stop(10);
  });

  it("the Done notice of a run started at the desk goes silently; unset, a question does not wait", async () => {
    vi.useFakeTimers({ now: T0 });
    const quiet = setup({ deskDelayMs: 20_000, notices: { level: "all", doneAfterMs: 1_000 } });
    quiet.bridge.handleEvent(DIR, { type: "session.status", sessionID: "ses_1", status: "busy" });
    await vi.advanceTimersByTimeAsync(5_000);
    quiet.bridge.handleEvent(DIR, { type: "session.idle", sessionID: "ses_1" });
    const done = await vi.waitFor(() => {
      const found = quiet.telegram.messages.find((m) => m.text.includes("Done"));
      if (!found) throw new Error("no Done yet");
      return found;
    });
    expect(done.silent).toBe(true);
    await quiet.bridge.stop(10);

    const plain = setup({ notices: { level: "all", doneAfterMs: 1_000 } });
    plain.bridge.handleEvent(DIR, { type: "session.status", sessionID: "ses_1", status: "busy" });
    plain.bridge.handleEvent(DIR, { type: "question.asked", request: request([question({ question: "No delay?" })]) });
    await vi.advanceTimersByTimeAsync(100);
    expect(shown(plain.telegram, "No delay?")).toBe(true);
    await vi.advanceTimersByTimeAsync(5_000);
    plain.bridge.handleEvent(DIR, { type: "session.idle", sessionID: "ses_1" });
    const loud = await vi.waitFor(() => {
      const found = plain.telegram.messages.find((m) => m.text.includes("Done"));
      if (!found) throw new Error("no Done yet");
      return found;
    });
    expect(loud.silent).not.toBe(true);
    await plain.bridge.stop(10);
  });
});
