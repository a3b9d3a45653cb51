// Answers to a person's action (a command's reply, a tap's confirmation, a list) have a lane of
// their own in the outbox and a class of their own in the pacer: after prompts, before edits,
// notices, chores and progress, inside the same group budget. On a fake clock.
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

function p90(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.ceil(sorted.length * 0.9) - 1]!;
}

function make(limits: typeof TELEGRAM_LIMITS = TELEGRAM_LIMITS) {
  outbox = new Outbox({ logger, limits, retryMinMs: 100, retryMaxMs: 1_000 });
  return outbox;
}

describe("Pacer: answers to a person's action", () => {
  it("in a group, an answer goes while deferrable messages wait for the reserve, and leaves the last slot to prompts", () => {
    const pacer = new Pacer(TELEGRAM_LIMITS, 0);
    for (let i = 0; i < 15; i++) pacer.take(GROUP, 0, "deferrable");
    expect(pacer.readyAt(GROUP, 1_000, "deferrable")).toBe(60_000);
    for (let i = 0; i < 4; i++) {
      expect(pacer.readyAt(GROUP, 1_000, "answer")).toBe(1_000);
      pacer.take(GROUP, 1_000, "answer");
    }
    // Nineteen in the window: the next answer waits for the oldest to leave; a prompt still goes.
    expect(pacer.readyAt(GROUP, 1_000, "answer")).toBe(60_000);
    expect(pacer.readyAt(GROUP, 1_000, "prompt")).toBe(1_000);
    pacer.take(GROUP, 1_000, "prompt");
    // Twenty: Telegram's limit holds for everyone.
    expect(pacer.readyAt(GROUP, 1_000, "prompt")).toBe(60_000);
  });

  it("an answer does not wait while prompts flow (an edit does), and does not make edits wait as a prompt does", () => {
    const pacer = new Pacer(TELEGRAM_LIMITS, 0);
    pacer.take(GROUP, 1_000, "prompt");
    expect(pacer.readyAt(GROUP, 1_100, "deferrable")).toBe(3_000);
    expect(pacer.readyAt(GROUP, 1_100, "answer")).toBe(1_100);
    const quiet = new Pacer(TELEGRAM_LIMITS, 0);
    quiet.take(GROUP, 1_000, "answer");
    expect(quiet.readyAt(GROUP, 1_100, "deferrable")).toBe(1_100);
  });

  it("in a private chat an answer needs one token, as a prompt does (a deferrable message leaves one)", () => {
    const pacer = new Pacer(TELEGRAM_LIMITS, 0);
    pacer.take(1, 0, "prompt");
    pacer.take(1, 0, "prompt");
    expect(pacer.readyAt(1, 0, "deferrable")).toBe(1_000);
    expect(pacer.readyAt(1, 0, "answer")).toBe(0);
  });
});

describe("Outbox: the answers' lane", () => {
  it("orders what is queued: prompts, then answers, then edits and notices, chores, progress last", async () => {
    const box = make({ ...TELEGRAM_LIMITS, privateBurst: 1, privateReserve: 0 });
    const order: string[] = [];
    const call = (name: string) => () => async () => void order.push(name);
    void box.send(1, call("first prompt"), Priority.Prompt);
    void box.update(1, "progress:1", call("progress"));
    void box.chore(1, async () => void order.push("chore"));
    void box.edit(1, 10, call("notice edit"), Priority.Edit);
    void box.send(1, call("answer"), Priority.Answer);
    void box.edit(1, 11, call("answer edit"), Priority.Answer);
    void box.send(1, call("second prompt"), Priority.Prompt);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(order).toEqual(["first prompt", "second prompt", "answer", "answer edit", "notice edit", "chore", "progress"]);
  });

  it("an answer never waits for a progress edit or notice still under way, and a prompt never waits for an answer", async () => {
    const box = make();
    const started: string[] = [];
    const releases: Array<() => void> = [];
    const holding = (name: string) => () => async () => {
      started.push(name);
      await new Promise<void>((resolve) => releases.push(resolve));
    };
    void box.update(GROUP, "progress:1", holding("progress"));
    await vi.advanceTimersByTimeAsync(10);
    void box.edit(GROUP, 7, holding("notice"), Priority.Edit);
    const answer = box.send(GROUP, holding("answer"), Priority.Answer);
    await vi.advanceTimersByTimeAsync(10);
    expect(started).toEqual(["progress", "answer"]);
    const prompt = box.send(GROUP, () => async () => void started.push("prompt"), Priority.Prompt);
    await vi.advanceTimersByTimeAsync(10);
    await prompt;
    expect(started).toEqual(["progress", "answer", "prompt"]);
    for (const release of releases.splice(0)) release();
    await answer;
    await vi.advanceTimersByTimeAsync(5_000);
    for (const release of releases.splice(0)) release();
    expect(started).toEqual(["progress", "answer", "prompt", "notice"]);
  });

  /**
   * A busy group for four minutes: three runs' progress (each wants an update every second), a
   * Done notice every 12 s, a prompt every 15 s with its settling edit; a person acts every 20 s
   * (a command's reply, then 3 s later a confirmation's edit). Returns how long each answer waited
   * and the most calls any 60 s held.
   */
  async function busyGroup(answerPriority: Priority): Promise<{ waits: number[]; promptWaits: number[]; mostInAMinute: number }> {
    const box = make();
    const start = Date.now();
    const calls: number[] = [];
    const waits: number[] = [];
    const promptWaits: number[] = [];
    const at = () => Date.now() - start;
    const record = (into?: number[], askedAt?: number) => () => async () => {
      calls.push(at());
      if (into && askedAt !== undefined) into.push(at() - askedAt);
    };
    for (let second = 0; second < 240; second++) {
      for (const run of [1, 2, 3]) void box.update(GROUP, `progress:${run}`, record()).catch(() => undefined);
      if (second % 12 === 5) void box.send(GROUP, record(), Priority.Edit);
      if (second % 15 === 3) {
        void box.send(GROUP, record(promptWaits, at()), Priority.Prompt);
        void box.edit(GROUP, 1_000 + second, record(), Priority.Edit);
      }
      if (second % 20 === 2) void box.send(GROUP, record(waits, at()), answerPriority);
      if (second % 20 === 5) void box.edit(GROUP, 2_000 + second, record(waits, at()), answerPriority);
      await vi.advanceTimersByTimeAsync(1_000);
    }
    await vi.advanceTimersByTimeAsync(120_000);
    let mostInAMinute = 0;
    for (const first of calls) mostInAMinute = Math.max(mostInAMinute, calls.filter((t) => t >= first && t < first + 60_000).length);
    return { waits, promptWaits, mostInAMinute };
  }

  it("in a busy group nine in ten of a person's answers go at once, prompts always, and the group never gets more than twenty calls a minute", async () => {
    const { waits, promptWaits, mostInAMinute } = await busyGroup(Priority.Answer);
    expect(waits).toHaveLength(24);
    // A sliding window: once in a while a full minute (the run's first burst) holds one back.
    expect(p90(waits)).toBe(0);
    expect(Math.max(...promptWaits)).toBe(0);
    expect(mostInAMinute).toBeLessThanOrEqual(20);
  });

  it("the same answers in the notices' lane wait behind progress and notices (what the lane is for)", async () => {
    const { waits, mostInAMinute } = await busyGroup(Priority.Edit);
    expect(waits).toHaveLength(24);
    expect(p90(waits)).toBeGreaterThan(10_000);
    expect(mostInAMinute).toBeLessThanOrEqual(20);
  });
});
