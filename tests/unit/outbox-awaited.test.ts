// What a person or the agent waits for that answers no tap (issue 50): a run's Done notice and its
// spoken answer, a file the agent sent, the first sight of a running command. In a supergroup after
// a busy minute each goes ahead of spare traffic, chores and edits, within the group's twenty a
// minute, and nothing queued is lost. On a fake clock with the real pacer.
import pino from "pino";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { Outbox, Priority } from "../../lib/telegram/wire/outbox.ts";
import { Pacer, TELEGRAM_LIMITS } from "../../lib/telegram/wire/pacer.ts";

const logger = pino({ level: "silent" });
const GROUP = -1001234567890;
let outbox: Outbox | undefined;

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
});
afterEach(async () => {
  await outbox?.stop();
  outbox = undefined;
  vi.useRealTimers();
});

/** An outbox whose calls are recorded (name, when); the group has had `busy` messages (prompts) in the last seconds. */
async function busyGroup(busy: number) {
  const box = new Outbox({ logger, limits: TELEGRAM_LIMITS, retryMinMs: 100, retryMaxMs: 1_000 });
  outbox = box;
  const sent: Array<{ name: string; at: number }> = [];
  const call = (name: string) => () => async () => void sent.push({ name, at: Date.now() });
  for (let i = 0; i < busy; i++) void box.send(GROUP, call(`busy ${i}`), Priority.Prompt).catch(() => undefined);
  await vi.advanceTimersByTimeAsync(3_000);
  expect(sent).toHaveLength(busy);
  sent.splice(0);
  return { box, sent, call };
}

describe("Pacer: spaced but not spare (the first sight of a running command)", () => {
  it("goes while the window holds fewer than a deferrable message's limit (not only the spare limit), spaced by its key", () => {
    const pacer = new Pacer(TELEGRAM_LIMITS, 0);
    for (let i = 0; i < 12; i++) pacer.take(GROUP, 0, "deferrable");
    // Twelve in the window: spare traffic waits for the window to drop under ten; the first sight goes.
    expect(pacer.readyAt(GROUP, 5_000, "deferrable", "progress:1")).toBeGreaterThan(5_000);
    expect(pacer.readyAt(GROUP, 5_000, "deferrable", "progress:1", { spare: false })).toBe(5_000);
    // Its key's bucket is spent as spare traffic's is: two back to back, then one per ten seconds.
    pacer.take(GROUP, 5_000, "deferrable", "progress:1");
    pacer.take(GROUP, 5_000, "deferrable", "progress:1");
    expect(pacer.readyAt(GROUP, 5_000, "deferrable", "progress:1", { spare: false })).toBe(15_000);
  });
});

describe("Outbox: awaited traffic in a busy group", () => {
  it("an awaited upload (the agent's file) goes at once after a busy minute, where a chore waits for the window", async () => {
    const { box, sent, call } = await busyGroup(15);
    void box.chore(GROUP, async () => void sent.push({ name: "chore", at: Date.now() })).catch(() => undefined);
    const file = box.upload(GROUP, call("agent file"), 60_000);
    await vi.advanceTimersByTimeAsync(500);
    expect(sent.map((s) => s.name)).toEqual(["agent file"]);
    await file;
    await vi.advanceTimersByTimeAsync(60_000);
    expect(sent.map((s) => s.name)).toEqual(["agent file", "chore"]);
  });

  it("when the window has room again, a Done notice and its voice answer go before queued edits, chores and progress: nothing is lost", async () => {
    const start = Date.now();
    const { box, sent, call } = await busyGroup(20);
    // Queued while the window is full: edits of settled prompts, chores, a progress update, then the run ends.
    for (let i = 0; i < 4; i++) void box.edit(GROUP, 100 + i, call(`edit ${i}`), Priority.Edit).catch(() => undefined);
    for (let i = 0; i < 2; i++) void box.chore(GROUP, async () => void sent.push({ name: `chore ${i}`, at: Date.now() })).catch(() => undefined);
    void box.update(GROUP, "progress:7", call("progress")).catch(() => undefined);
    void box
      .send(GROUP, call("Done"), Priority.Awaited)
      .then(() => box.upload(GROUP, call("voice answer"), 30_000))
      .catch(() => undefined);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(sent).toEqual([]);
    // The busy minute's messages leave the window a minute after they went: the Done notice and its answer first.
    const roomAt = start + 60_000;
    await vi.advanceTimersByTimeAsync(roomAt - Date.now() + 500);
    expect(sent.slice(0, 2).map((s) => s.name)).toEqual(["Done", "voice answer"]);
    for (const s of sent.slice(0, 2)) expect(s.at - roomAt).toBeLessThan(15_000);
    await vi.advanceTimersByTimeAsync(120_000);
    const names = sent.map((s) => s.name);
    expect(names.slice(2, 6)).toEqual(["edit 0", "edit 1", "edit 2", "edit 3"]);
    expect(names).toContain("chore 0");
    expect(names).toContain("chore 1");
    expect(names).toContain("progress");
    expect(names).toHaveLength(9);
  });

  it("an awaited progress update (a command not named yet) goes ahead of queued edits, with a deferrable message's budget", async () => {
    const { box, sent, call } = await busyGroup(12);
    void box.edit(GROUP, 100, call("edit"), Priority.Edit).catch(() => undefined);
    void box.update(GROUP, "progress:1", call("running: npm test"), Priority.Awaited).catch(() => undefined);
    void box.update(GROUP, "progress:2", call("spare progress")).catch(() => undefined);
    await vi.advanceTimersByTimeAsync(3_000);
    expect(sent.map((s) => s.name)).toEqual(["running: npm test", "edit"]);
  });

  it("a queued spare update raised to awaited (a command named while it waited) goes at once: the outbox does not sleep out the spare wait", async () => {
    const { box, sent, call } = await busyGroup(12);
    // Twelve in the window: spare traffic waits until the window drops under ten, most of a minute.
    void box.update(GROUP, "progress:1", call("pending call")).catch(() => undefined);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(sent).toEqual([]);
    void box.update(GROUP, "progress:1", call("running: sleep 8"), Priority.Awaited).catch(() => undefined);
    await vi.advanceTimersByTimeAsync(500);
    expect(sent.map((s) => s.name)).toEqual(["running: sleep 8"]);
  });

  it("prompts still come first, and an awaited message leaves the window's last slot to them", async () => {
    const { box, sent, call } = await busyGroup(17);
    void box.send(GROUP, call("Done"), Priority.Awaited).catch(() => undefined);
    void box.upload(GROUP, call("agent file"), 60_000).catch(() => undefined);
    void box.send(GROUP, call("prompt"), Priority.Prompt).catch(() => undefined);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(sent.map((s) => s.name)).toEqual(["prompt", "Done"]);
    // Twenty in the window: the file waits for the oldest to leave.
    await vi.advanceTimersByTimeAsync(70_000);
    expect(sent.map((s) => s.name)).toEqual(["prompt", "Done", "agent file"]);
  });
});
