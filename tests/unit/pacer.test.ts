import { describe, expect, it } from "vitest";
import { Pacer, TELEGRAM_LIMITS, type Urgency } from "../../lib/telegram/wire/pacer.ts";

const limits = { ...TELEGRAM_LIMITS, privateBurst: 3, globalPerSecond: 5, globalBurst: 5 };
const GROUP = -1001234567890;

/** Sends to `chatId` as fast as the pacer allows, returning the send times. */
function drain(pacer: Pacer, chatId: number, count: number, start = 0, urgency: Urgency = "prompt"): number[] {
  const times: number[] = [];
  let now = start;
  for (let i = 0; i < count; i++) {
    now = pacer.readyAt(chatId, now, urgency);
    pacer.take(chatId, now, urgency);
    times.push(now);
  }
  return times;
}

describe("Pacer", () => {
  it("lets a private chat burst, then one message a second", () => {
    expect(drain(new Pacer(limits, 0), 1, 6)).toEqual([0, 0, 0, 1000, 2000, 3000]);
  });

  it("a group prompt right after a message goes out at once (it used to wait ~3 s)", () => {
    const pacer = new Pacer(TELEGRAM_LIMITS, 0);
    pacer.take(GROUP, 0);
    pacer.take(GROUP, 50, "deferrable"); // the previous prompt's edit
    expect(pacer.readyAt(GROUP, 100)).toBe(100);
  });

  it("a group gets twenty messages in any sixty seconds, then waits for the oldest to leave the window", () => {
    const pacer = new Pacer(TELEGRAM_LIMITS, 0);
    const times = drain(pacer, GROUP, 20, 1_000).concat(drain(pacer, GROUP, 2, 5_000));
    expect(times.slice(0, 20)).toEqual(Array(20).fill(1_000));
    expect(times.slice(20)).toEqual([61_000, 61_000]);
  });

  it("a sliding window, not even spacing: messages spread over a minute free their slots one by one", () => {
    const pacer = new Pacer(TELEGRAM_LIMITS, 0);
    for (let i = 0; i < 20; i++) pacer.take(GROUP, i * 1_000);
    expect(pacer.readyAt(GROUP, 20_000)).toBe(60_000);
    pacer.take(GROUP, 60_000);
    expect(pacer.readyAt(GROUP, 60_000)).toBe(61_000);
  });

  it("group edits wait while prompts flow: twenty rounds a second apart all get their prompt at once", () => {
    const pacer = new Pacer(TELEGRAM_LIMITS, 0);
    const promptAt: number[] = [];
    let editsSent = 0;
    // Twenty rounds, a second apart: a prompt, then (answered at once) its edit if the budget allows.
    for (let round = 0; round < 20; round++) {
      const now = round * 1_000;
      promptAt.push(pacer.readyAt(GROUP, now));
      pacer.take(GROUP, promptAt.at(-1)!);
      if (pacer.readyAt(GROUP, now + 100, "deferrable") === now + 100) {
        pacer.take(GROUP, now + 100, "deferrable");
        editsSent++;
      }
    }
    expect(promptAt).toEqual(promptAt.map((_, round) => round * 1_000));
    expect(editsSent).toBe(0);
    // The twenty-first prompt within the minute waits for the first to leave the window. An edit
    // leaves five slots to prompts: it goes once six prompts left (the one sent at 5 s, at 65 s).
    expect(pacer.readyAt(GROUP, 20_000)).toBe(60_000);
    expect(pacer.readyAt(GROUP, 20_000, "deferrable")).toBe(65_000);
  });

  it("a group's slot counts from Telegram's answer, not from the send (Telegram counts on arrival)", () => {
    const pacer = new Pacer(TELEGRAM_LIMITS, 0);
    for (let i = 0; i < 20; i++) pacer.take(GROUP, 0)(40);
    expect(pacer.readyAt(GROUP, 60_000)).toBe(60_040);
  });

  it("a group edit waits for a quiet moment after a prompt, then goes out", () => {
    const pacer = new Pacer(TELEGRAM_LIMITS, 0);
    pacer.take(GROUP, 1_000);
    expect(pacer.readyAt(GROUP, 1_100, "deferrable")).toBe(3_000);
    expect(pacer.readyAt(GROUP, 5_000, "deferrable")).toBe(5_000);
  });

  it("edits never take the last five slots of a group's minute: a prompt still goes at once", () => {
    const pacer = new Pacer(TELEGRAM_LIMITS, 0);
    expect(drain(pacer, GROUP, 15, 0, "deferrable")).toEqual(Array(15).fill(0));
    expect(pacer.readyAt(GROUP, 1_000, "deferrable")).toBe(60_000);
    expect(drain(pacer, GROUP, 5, 1_000)).toEqual(Array(5).fill(1_000));
    expect(pacer.readyAt(GROUP, 1_000)).toBe(60_000);
  });

  it("a command's first sight leaves only the last three slots of a group's minute: an edit and a chore before it do not hold it 45 s", () => {
    const pacer = new Pacer(TELEGRAM_LIMITS, 0);
    // A busy minute (issue 50, a supergroup): 13 prompts and answers, then a settled question's edit and a 👍.
    drain(pacer, GROUP, 13, 0);
    pacer.take(GROUP, 5_000, "deferrable");
    pacer.take(GROUP, 5_000, "deferrable");
    // The window holds 15: another edit waits for the minute to turn, a first sight goes at once.
    expect(pacer.readyAt(GROUP, 20_000, "deferrable")).toBe(60_000);
    expect(pacer.readyAt(GROUP, 20_000, "deferrable", "run", { spare: false })).toBe(20_000);
    pacer.take(GROUP, 20_000, "deferrable", "run")(20_000);
    expect(pacer.readyAt(GROUP, 20_000, "deferrable", "other", { spare: false })).toBe(20_000);
    pacer.take(GROUP, 20_000, "deferrable", "other")(20_000);
    // At 17 even a first sight waits: the last three slots stay for answers and prompts.
    expect(pacer.readyAt(GROUP, 20_000, "deferrable", "third", { spare: false })).toBe(60_000);
    expect(pacer.readyAt(GROUP, 20_000, "answer")).toBe(20_000);
    expect(drain(pacer, GROUP, 3, 20_000)).toEqual([20_000, 20_000, 20_000]);
    expect(pacer.readyAt(GROUP, 20_000)).toBe(60_000);
  });

  it("a first sight still waits out the quiet after a prompt in a group", () => {
    const pacer = new Pacer(TELEGRAM_LIMITS, 0);
    pacer.take(GROUP, 1_000);
    expect(pacer.readyAt(GROUP, 1_100, "deferrable", "run", { spare: false })).toBe(3_000);
  });

  it("private edits keep a token for the next prompt", () => {
    const pacer = new Pacer(limits, 0);
    expect(drain(pacer, 1, 3, 0, "deferrable")).toEqual([0, 0, 1000]);
    expect(pacer.readyAt(1, 1000)).toBe(1000);
  });

  it("caps all chats together under the global rate", () => {
    const pacer = new Pacer(limits, 0);
    let now = 0;
    const times = [1, 2, 3, 4, 5, 6, 7].map((chat) => {
      now = pacer.readyAt(chat, now);
      pacer.take(chat, now);
      return now;
    });
    expect(times.slice(0, 5)).toEqual([0, 0, 0, 0, 0]);
    expect(times[5]).toBe(200);
    expect(times[6]).toBe(400);
  });

  it("refills while idle, but never beyond the burst", () => {
    const pacer = new Pacer(limits, 0);
    drain(pacer, 1, 3);
    expect(drain(pacer, 1, 4, 60_000)).toEqual([60_000, 60_000, 60_000, 61_000]);
  });

  it("a 429 blocks the chat for exactly retry_after, other chats go on", () => {
    const pacer = new Pacer(limits, 0);
    pacer.block(1, 7, 500);
    pacer.block(GROUP, 30, 500);
    expect(pacer.readyAt(1, 500)).toBe(7_500);
    expect(pacer.readyAt(GROUP, 500)).toBe(30_500);
    expect(pacer.readyAt(2, 500)).toBe(500);
  });

  describe("spare traffic (one run's progress): a token bucket per key", () => {
    /** Calls under one spare key, each wanted at its time in `wants` and made as soon as the pacer lets it go. */
    function spare(pacer: Pacer, chatId: number, key: string, wants: number[]): number[] {
      let last = 0;
      return wants.map((want) => {
        const at = pacer.readyAt(chatId, Math.max(want, last), "deferrable", key);
        pacer.take(chatId, at, "deferrable", key)(at);
        last = at;
        return at;
      });
    }

    it("spare calls leave the key's last token: one at once after a quiet spell, then one per 10 s in a group (3 s in a private chat)", () => {
      expect(spare(new Pacer(TELEGRAM_LIMITS, 0), GROUP, "p", [0, 1_000, 2_000, 3_000, 4_000])).toEqual([0, 10_000, 20_000, 30_000, 40_000]);
      // A private chat's spare call also waits for the chat's bucket to be full; ms rounded.
      const privately = spare(new Pacer(TELEGRAM_LIMITS, 0), 7, "p", [0, 100, 200, 300]);
      expect(privately.map((at) => Math.round(at / 10) * 10)).toEqual([0, 3_000, 6_000, 9_000]);
    });

    it("the first seconds of a run: its message, a spare change right after it, then a command's first sight at once (the token spare traffic left), the todos after it within 20 s", () => {
      const pacer = new Pacer(TELEGRAM_LIMITS, 0);
      // The message goes out at 0 with the todo list (an answer under the key).
      pacer.take(GROUP, 0, "answer", "run")(0);
      // The to-do tool's own step ends at 200 ms: spare, it waits (it would leave nothing for the command).
      expect(pacer.readyAt(GROUP, 200, "deferrable", "run")).toBe(10_000);
      // The command is named at 1 s: its first sight goes at once, with the last token.
      expect(pacer.readyAt(GROUP, 1_000, "deferrable", "run", { spare: false })).toBe(1_000);
      pacer.take(GROUP, 1_000, "deferrable", "run")(1_000);
      // The todos move on at 9 s: spare again, when the bucket holds two.
      expect(pacer.readyAt(GROUP, 9_000, "deferrable", "run")).toBe(20_000);
      // Before this rule the spare change spent the last token and the command waited 10 s (issue 50, a supergroup under load).
    });

    it("never more than eight calls of one run in any minute, however often its state changes", () => {
      const pacer = new Pacer(TELEGRAM_LIMITS, 0);
      const times = spare(
        pacer,
        GROUP,
        "busy",
        Array.from({ length: 60 }, (_, i) => i * 500),
      );
      for (const at of times) expect(times.filter((other) => other >= at && other < at + 60_000).length).toBeLessThanOrEqual(8);
      expect(times.filter((at) => at < 60_000)).toHaveLength(6); // 0, then 10 s … 50 s
      // First sights among them use the last token too, and still no more than eight a minute.
      const mixed = new Pacer(TELEGRAM_LIMITS, 0);
      const at: number[] = [];
      for (let want = 0, i = 0; want < 120_000; want += 500, i++) {
        const sight = i % 3 === 0 ? { spare: false } : {};
        if (mixed.readyAt(GROUP, want, "deferrable", "busy", sight) > want) continue;
        mixed.take(GROUP, want, "deferrable", "busy")(want);
        at.push(want);
      }
      for (const from of at) expect(at.filter((other) => other >= from && other < from + 60_000).length).toBeLessThanOrEqual(8);
      for (let i = 2; i < at.length; i++) expect(at[i]! - at[i - 2]!).toBeGreaterThanOrEqual(9_900);
    });

    it("a spare call that no command follows (the answer being written) may spend the key's last token", () => {
      const pacer = new Pacer(TELEGRAM_LIMITS, 0);
      // The run's message at 1 s (spare), then the answer's last lines 200 ms later: they go at once.
      pacer.take(GROUP, 1_000, "deferrable", "run")(1_000);
      expect(pacer.readyAt(GROUP, 1_200, "deferrable", "run")).toBe(11_000);
      expect(pacer.readyAt(GROUP, 1_200, "deferrable", "run", { lastToken: true })).toBe(1_200);
      pacer.take(GROUP, 1_200, "deferrable", "run")(1_200);
      // The bucket is spent: the next call of any kind waits, and still no three within 10 s.
      expect(pacer.readyAt(GROUP, 2_000, "deferrable", "run", { lastToken: true })).toBe(11_000);
      expect(pacer.readyAt(GROUP, 2_000, "deferrable", "run", { spare: false })).toBe(11_000);
    });

    it("an urgent call under the key (the run's first message, its last line) spends a token too", () => {
      const pacer = new Pacer(TELEGRAM_LIMITS, 0);
      pacer.take(GROUP, 0, "prompt", "run");
      pacer.take(GROUP, 100, "prompt", "run");
      expect(pacer.readyAt(GROUP, 2_100, "deferrable", "run", { spare: false })).toBe(10_000);
      expect(pacer.readyAt(GROUP, 2_100, "deferrable", "run")).toBe(20_000);
    });

    it("keys of other runs do not share a bucket, and a key whose bucket is full again is forgotten", () => {
      const pacer = new Pacer(TELEGRAM_LIMITS, 0);
      spare(pacer, GROUP, "a", [0, 0]);
      expect(pacer.readyAt(GROUP, 2_000, "deferrable", "b")).toBe(2_000);
      spare(pacer, GROUP, "b", [2_000]);
      expect(pacer.spareKeys).toBe(2);
      spare(pacer, GROUP, "c", [30_000]);
      expect(pacer.spareKeys).toBe(1);
    });
  });
});
