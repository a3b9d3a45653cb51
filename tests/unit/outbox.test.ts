import pino from "pino";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { TelegramApiError } from "../../lib/telegram/wire/api.ts";
import { Outbox, Priority } from "../../lib/telegram/wire/outbox.ts";
import { TELEGRAM_LIMITS } from "../../lib/telegram/wire/pacer.ts";
import { Reachability } from "../../lib/telegram/wire/reachability.ts";

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

function make(limits: typeof TELEGRAM_LIMITS | false = false) {
  outbox = new Outbox({ logger, limits, retryMinMs: 100, retryMaxMs: 1_000 });
  return outbox;
}

describe("Outbox", () => {
  it("sends new prompts ahead of queued edits", async () => {
    const box = make({ ...TELEGRAM_LIMITS, privateBurst: 1 });
    const order: string[] = [];
    const call = (name: string) => () => async () => void order.push(name);
    void box.send(1, call("first prompt"));
    void box.edit(1, 10, call("edit"));
    void box.send(1, call("second prompt"));
    await vi.advanceTimersByTimeAsync(5_000);
    expect(order).toEqual(["first prompt", "second prompt", "edit"]);
  });

  it("collapses queued edits of one message: only the latest state goes out", async () => {
    const box = make({ ...TELEGRAM_LIMITS, privateBurst: 1 });
    const sent: string[] = [];
    void box.send(1, () => async () => void sent.push("prompt"));
    const edits = ["v1", "v2", "v3"].map((version) => box.edit(1, 10, () => async () => void sent.push(version)));
    await vi.advanceTimersByTimeAsync(3_000);
    await Promise.all(edits);
    expect(sent).toEqual(["prompt", "v3"]);
  });

  it("progress is spare traffic: a prompt asked while progress waits goes out first, exactly as with no progress at all", async () => {
    // The same group, the same prompts, with and without a run's progress updates queued before each.
    const promptTimes = async (withProgress: boolean) => {
      const box = make(TELEGRAM_LIMITS);
      const at: number[] = [];
      const start = Date.now();
      for (let i = 0; i < 12; i++) {
        if (withProgress) for (let s = 0; s < 5; s++) void box.update(GROUP, `progress:${s}`, () => async () => void progressCalls++).catch(() => undefined);
        const sent = box.send(GROUP, () => async () => void at.push(Date.now() - start));
        await vi.advanceTimersByTimeAsync(4_000);
        await sent;
      }
      await box.stop();
      outbox = undefined;
      return at;
    };
    let progressCalls = 0;
    const without = await promptTimes(false);
    const withProgress = await promptTimes(true);
    expect(withProgress).toEqual(without);
    expect(progressCalls).toBeGreaterThan(0); // progress did go out, in the gaps
  });

  it("a prompt never waits for an edit or progress call still under way: it has a lane of its own; other calls go one at a time", async () => {
    const box = make(TELEGRAM_LIMITS);
    const started: string[] = [];
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    void box.update(GROUP, "progress:1", () => async () => {
      started.push("progress");
      await held;
    });
    await vi.advanceTimersByTimeAsync(10);
    void box.edit(GROUP, 7, () => async () => void started.push("edit"));
    const prompt = box.send(GROUP, () => async () => void started.push("prompt"));
    try {
      await vi.advanceTimersByTimeAsync(10);
      await prompt;
      expect(started).toEqual(["progress", "prompt"]);
    } finally {
      release();
    }
    await vi.advanceTimersByTimeAsync(5_000);
    expect(started).toEqual(["progress", "prompt", "edit"]);
  });

  it("two edits of one message never overlap, whatever their lanes: the second waits for the first to be answered", async () => {
    const box = make(TELEGRAM_LIMITS);
    const events: string[] = [];
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    void box.edit(1, 10, () => async () => {
      events.push("settle starts");
      await held;
      events.push("settle answered");
    });
    await vi.advanceTimersByTimeAsync(10);
    const tick = box.edit(1, 10, () => async () => void events.push("tick"), Priority.Prompt);
    await vi.advanceTimersByTimeAsync(10);
    expect(events).toEqual(["settle starts"]);
    release();
    await vi.advanceTimersByTimeAsync(5_000);
    await tick;
    expect(events).toEqual(["settle starts", "settle answered", "tick"]);
  });

  it("progress: only the latest state goes out; one run's spare calls go one per 10 s in a group (3 s in a private chat), the key's last token left to a first sight, eight in any minute", async () => {
    const box = make(TELEGRAM_LIMITS);
    const calls: Array<{ chat: number; state: number; at: number }> = [];
    const start = Date.now();
    for (let state = 0; state < 120; state++) {
      for (const chat of [GROUP, 1])
        void box.update(chat, `progress:${chat}`, () => async () => void calls.push({ chat, state, at: Date.now() - start })).catch(() => undefined);
      await vi.advanceTimersByTimeAsync(500);
    }
    await vi.advanceTimersByTimeAsync(20_000);
    for (const chat of [GROUP, 1]) {
      const every = chat === GROUP ? 10_000 : 3_000;
      const at = calls.filter((call) => call.chat === chat).map((call) => call.at);
      // The bucket: spare traffic leaves its last token (to a first sight), so one per `every` from the start.
      for (let i = 1; i < at.length; i++) expect(at[i]! - at[i - 1]!).toBeGreaterThanOrEqual(every - 1);
      if (chat === GROUP) for (const from of at) expect(at.filter((other) => other >= from && other < from + 60_000).length).toBeLessThanOrEqual(8);
      // Intermediate states collapsed; the last state is the one that went out last.
      expect(calls.filter((call) => call.chat === chat).at(-1)?.state).toBe(119);
      expect(at.length).toBeLessThan(chat === GROUP ? 10 : 25);
    }
  });

  it("progress uses only what a group's window leaves: it waits while ten messages went out in the last minute", async () => {
    const box = make(TELEGRAM_LIMITS);
    for (let i = 0; i < 10; i++) await box.send(GROUP, () => async () => undefined);
    let at: number | undefined;
    const start = Date.now();
    const progress = box.update(GROUP, "progress:1", () => async () => {
      at = Date.now() - start;
    });
    await vi.advanceTimersByTimeAsync(30_000);
    expect(at).toBeUndefined();
    await vi.advanceTimersByTimeAsync(40_000);
    await progress;
    expect(at).toBeGreaterThanOrEqual(59_000);
  });

  it("a run's last word replaces its queued progress and goes out without waiting for the spacing", async () => {
    const box = make(TELEGRAM_LIMITS);
    const sent: string[] = [];
    await box.update(1, "progress:1", () => async () => void sent.push("first"));
    void box.update(1, "progress:1", () => async () => void sent.push("progress"));
    const last = box.update(1, "progress:1", () => async () => void sent.push("final"), Priority.Edit);
    await vi.advanceTimersByTimeAsync(1_000);
    await last;
    expect(sent).toEqual(["first", "final"]);
  });

  it("progress leaves its key's last token to a first sight; the answer being written may spend it (the latest update says which)", async () => {
    const box = make(TELEGRAM_LIMITS);
    const sent: Array<{ name: string; at: number }> = [];
    const start = Date.now();
    const call = (name: string) => () => async () => void sent.push({ name, at: Date.now() - start });
    await box.update(GROUP, "progress:1", call("message"));
    // A step ended: spare, it waits (one token left, for the next command's first sight).
    void box.update(GROUP, "progress:1", call("step ended")).catch(() => undefined);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(sent.map((s) => s.name)).toEqual(["message"]);
    // The answer is being written: the queued edit takes its state and may spend the last token.
    void box.update(GROUP, "progress:1", call("answer"), Priority.Progress, { lastToken: true }).catch(() => undefined);
    await vi.advanceTimersByTimeAsync(500);
    expect(sent.map((s) => s.name)).toEqual(["message", "answer"]);
    // A step after it (the latest update leaves the token again) waits until the bucket holds two.
    void box.update(GROUP, "progress:2", call("other run")).catch(() => undefined);
    void box.update(GROUP, "progress:1", call("answer, then a step"), Priority.Progress, { lastToken: true }).catch(() => undefined);
    void box.update(GROUP, "progress:1", call("a step")).catch(() => undefined);
    await vi.advanceTimersByTimeAsync(15_000);
    expect(sent.map((s) => s.name)).toEqual(["message", "answer", "other run"]);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(sent.map((s) => s.name)).toEqual(["message", "answer", "other run", "a step"]);
    expect(sent.at(-1)!.at).toBeGreaterThanOrEqual(20_000);
  });

  it("waits exactly retry_after after a 429, then sends once", async () => {
    const box = make(TELEGRAM_LIMITS);
    const attempts: number[] = [];
    const result = box.send(1, () => async () => {
      attempts.push(Date.now());
      if (attempts.length === 1) throw new TelegramApiError(429, "Too Many Requests: retry after 5", 5);
      return "ok";
    });
    await vi.advanceTimersByTimeAsync(4_999);
    expect(attempts).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(await result).toBe("ok");
    expect(attempts[1]! - attempts[0]!).toBe(5_000);
  });

  it("keeps retrying a prompt through a long outage and delivers it once Telegram is back", async () => {
    const box = make();
    let calls = 0;
    const result = box.send(1, () => async () => {
      if (++calls <= 20) throw new TelegramApiError(0, "connect ECONNREFUSED");
      return { messageId: 7 };
    });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(await result).toEqual({ messageId: 7 });
    expect(calls).toBe(21);
  });

  it("does not send what is no longer wanted when its turn comes", async () => {
    const box = make();
    let wanted = true;
    let calls = 0;
    const result = box.send(1, () => {
      if (!wanted) return undefined;
      return async () => {
        calls++;
        throw new TelegramApiError(503, "Service Unavailable");
      };
    });
    await vi.advanceTimersByTimeAsync(10);
    wanted = false; // answered in the terminal meanwhile
    await vi.advanceTimersByTimeAsync(5_000);
    expect(await result).toBeUndefined();
    expect(calls).toBe(1);
  });

  it("fails at once on a request Telegram rejects (400), without retrying", async () => {
    const box = make();
    let calls = 0;
    const result = box.send(1, () => async () => {
      calls++;
      throw new TelegramApiError(400, "Bad Request: can't parse entities");
    });
    await expect(result).rejects.toThrow(/can't parse entities/);
    expect(calls).toBe(1);
  });

  it("gives up on chores after a few attempts", async () => {
    const box = make();
    let calls = 0;
    const result = box.chore(1, async () => {
      calls++;
      throw new TelegramApiError(502, "Bad Gateway");
    });
    result.catch(() => undefined);
    await vi.advanceTimersByTimeAsync(60_000);
    await expect(result).rejects.toThrow(/Bad Gateway/);
    expect(calls).toBe(5);
  });

  it("paces one chat without holding up another", async () => {
    const box = make({ ...TELEGRAM_LIMITS, privateBurst: 1 });
    const sent: Array<[number, number]> = [];
    for (const chat of [1, 1, 1, 2]) void box.send(chat, () => async () => void sent.push([chat, Date.now()]), Priority.Prompt);
    await vi.advanceTimersByTimeAsync(5_000);
    const start = sent[0]![1];
    expect(sent.map(([chat, at]) => [chat, at - start])).toEqual([
      [1, 0],
      [2, 0],
      [1, 1000],
      [1, 2000],
    ]);
  });

  it("in a group, a prompt goes out at once behind an edit and a previous prompt", async () => {
    const box = make(TELEGRAM_LIMITS);
    const sent: Array<[string, number]> = [];
    const call = (name: string) => () => async () => void sent.push([name, Date.now()]);
    const start = Date.now();
    await box.send(GROUP, call("first prompt"));
    void box.edit(GROUP, 10, call("edit of the first"));
    await vi.advanceTimersByTimeAsync(100);
    await box.send(GROUP, call("second prompt"));
    await vi.advanceTimersByTimeAsync(5_000);
    expect(sent.map(([name, at]) => [name, at - start])).toEqual([
      ["first prompt", 0],
      ["second prompt", 100],
      ["edit of the first", 2_100], // after a quiet moment since the last prompt
    ]);
  });

  it("a group over its budget: prompts first as slots free up, retry_after honoured exactly, nothing lost or sent twice", async () => {
    const box = make(TELEGRAM_LIMITS);
    const sent: Array<[string, number]> = [];
    let refusedOnce = false;
    const start = Date.now();
    const results: Array<Promise<unknown>> = [];
    for (let i = 0; i < 22; i++) results.push(box.send(GROUP, () => async () => void sent.push([`p${i}`, Date.now() - start])));
    results.push(box.edit(GROUP, 1, () => async () => void sent.push(["edit", Date.now() - start])));
    results.push(
      box.send(GROUP, () => async () => {
        // Another sender spent the budget: Telegram refuses once and says how long to wait.
        if (!refusedOnce) {
          refusedOnce = true;
          throw new TelegramApiError(429, "Too Many Requests: retry after 7", 7);
        }
        sent.push(["late", Date.now() - start]);
      }),
    );
    await vi.advanceTimersByTimeAsync(200_000);
    await Promise.all(results);
    const names = sent.map(([name]) => name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toHaveLength(24);
    expect(sent.slice(0, 20).every(([, at]) => at === 0)).toBe(true);
    expect(names.indexOf("edit")).toBe(23);
    // The 429 came at 60 s (when p20 and p21 had slots); "late" was asked to wait 7 s.
    expect(sent.find(([name]) => name === "late")![1]).toBe(67_000);
  });

  it("in a group, an edit the user waits for (an open prompt's) goes at once; a settled prompt's waits", async () => {
    const box = make(TELEGRAM_LIMITS);
    const sent: Array<[string, number]> = [];
    const start = Date.now();
    await box.send(GROUP, () => async () => void sent.push(["prompt", Date.now() - start]));
    void box.edit(GROUP, 1, () => async () => void sent.push(["tick on the open prompt", Date.now() - start]), Priority.Prompt);
    void box.edit(GROUP, 2, () => async () => void sent.push(["settled prompt", Date.now() - start]));
    await vi.advanceTimersByTimeAsync(5_000);
    expect(sent).toEqual([
      ["prompt", 0],
      ["tick on the open prompt", 0],
      ["settled prompt", 2_000],
    ]);
  });

  it("finishing: queued edits no longer wait for prompts that will not come", async () => {
    const box = make(TELEGRAM_LIMITS);
    const sent: Array<[string, number]> = [];
    const start = Date.now();
    await box.send(GROUP, () => async () => void sent.push(["prompt", Date.now() - start]));
    const edit = box.edit(GROUP, 10, () => async () => void sent.push(["closing edit", Date.now() - start]));
    await vi.advanceTimersByTimeAsync(100);
    box.finishing();
    await vi.advanceTimersByTimeAsync(1);
    await edit;
    expect(sent).toEqual([
      ["prompt", 0],
      ["closing edit", 100],
    ]);
  });

  it("a call with no answer counts as failed and is retried", async () => {
    outbox = new Outbox({ logger, limits: false, callTimeoutMs: 1_000, retryMinMs: 100 });
    let calls = 0;
    const result = outbox.send(1, () => () => (++calls === 1 ? new Promise<string>(() => undefined) : Promise.resolve("late but sent")));
    await vi.advanceTimersByTimeAsync(1_200);
    expect(await result).toBe("late but sent");
    expect(calls).toBe(2);
  });

  it("stop() fails what is still queued", async () => {
    const box = make();
    const result = box.send(1, () => async () => {
      throw new TelegramApiError(500, "down");
    });
    await vi.advanceTimersByTimeAsync(10);
    outbox = undefined;
    await box.stop();
    await expect(result).rejects.toThrow(/outbox stopped|down/);
  });
});

describe("Outbox when Telegram is back", () => {
  // Telegram "down" until `upAt`: every call before then is refused, as in an outage.
  function outage(upAt: number) {
    const reachability = new Reachability();
    const attempts: Array<[string, number]> = [];
    const call =
      <T>(name: string, result: T) =>
      () =>
      async () => {
        attempts.push([name, Date.now()]);
        if (Date.now() < upAt) {
          reachability.failed(0);
          throw new TelegramApiError(0, "connect ECONNREFUSED");
        }
        reachability.answered();
        return result;
      };
    return { reachability, attempts, call };
  }

  it("a prompt waiting out its backoff goes out as soon as another call finds Telegram back, once", async () => {
    const start = Date.now();
    const { reachability, attempts, call } = outage(start + 20_000);
    outbox = new Outbox({ logger, limits: TELEGRAM_LIMITS, retryMinMs: 500, retryMaxMs: 30_000, reachability });
    const result = outbox.send(1, call("prompt", { messageId: 7 }));
    // Backoff alone: tries at 0, 0.5, 1.5, 3.5, 7.5, 15.5 and next at 31.5 s.
    await vi.advanceTimersByTimeAsync(20_500);
    expect(attempts.map(([, at]) => at - start)).toEqual([0, 500, 1_500, 3_500, 7_500, 15_500]);
    // The long poll succeeds at 20.5 s: the prompt goes at once, not at 31.5 s.
    reachability.answered(); // trouble was marked by the failures above
    await vi.advanceTimersByTimeAsync(0);
    expect(await result).toEqual({ messageId: 7 });
    expect(attempts.map(([, at]) => at - start)).toEqual([0, 500, 1_500, 3_500, 7_500, 15_500, 20_500]);
    await vi.advanceTimersByTimeAsync(20_000);
    expect(attempts).toHaveLength(7);
  });

  it("one send that gets through releases the others that wait, in order and within the chat's pace", async () => {
    const start = Date.now();
    const { reachability, attempts, call } = outage(start + 5_000);
    outbox = new Outbox({ logger, limits: TELEGRAM_LIMITS, retryMinMs: 500, retryMaxMs: 30_000, reachability });
    const first = outbox.send(1, call("first", 1));
    await vi.advanceTimersByTimeAsync(400);
    const second = outbox.send(2, call("second", 2));
    await vi.advanceTimersByTimeAsync(5_000 - 400);
    // Both back off (first tries at 0, 0.5, 1.5, 3.5, next 7.5; second at 0.4, 0.9, 1.9, 3.9, next 7.9).
    const third = outbox.send(3, call("third", 3)); // new: goes now, succeeds, and Telegram is back
    await vi.advanceTimersByTimeAsync(0);
    expect(await Promise.all([first, second, third])).toEqual([1, 2, 3]);
    const after = attempts.filter(([, at]) => at >= start + 5_000).map(([name, at]) => [name, at - start]);
    expect(after).toEqual([
      ["third", 5_000],
      ["first", 5_000],
      ["second", 5_000],
    ]);
  });

  it("a retry_after is still honoured: being back ends a backoff, never Telegram's own wait", async () => {
    const reachability = new Reachability();
    outbox = new Outbox({ logger, limits: TELEGRAM_LIMITS, retryMinMs: 500, retryMaxMs: 30_000, reachability });
    const start = Date.now();
    const attempts: number[] = [];
    const result = outbox.send(1, () => async () => {
      attempts.push(Date.now() - start);
      if (attempts.length === 1) throw new TelegramApiError(429, "Too Many Requests: retry after 5", 5);
      return "ok";
    });
    await vi.advanceTimersByTimeAsync(1_000);
    reachability.failed(0);
    reachability.answered(); // another call finds Telegram back
    await vi.advanceTimersByTimeAsync(3_999);
    expect(attempts).toEqual([0]);
    await vi.advanceTimersByTimeAsync(1);
    expect(await result).toBe("ok");
    expect(attempts).toEqual([0, 5_000]);
  });

  it("a chat under retry_after stays closed to its other messages too when Telegram is back", async () => {
    const reachability = new Reachability();
    outbox = new Outbox({ logger, limits: TELEGRAM_LIMITS, retryMinMs: 500, retryMaxMs: 30_000, reachability });
    const start = Date.now();
    const sent: Array<[string, number]> = [];
    let told = false;
    const first = outbox.send(1, () => async () => {
      if (!told) {
        told = true;
        throw new TelegramApiError(429, "Too Many Requests: retry after 5", 5);
      }
      sent.push(["first", Date.now() - start]);
    });
    await vi.advanceTimersByTimeAsync(100);
    const second = outbox.send(1, () => async () => void sent.push(["second", Date.now() - start]));
    const elsewhere = outbox.send(2, () => async () => void sent.push(["other chat", Date.now() - start]));
    await vi.advanceTimersByTimeAsync(900);
    reachability.failed(0);
    reachability.answered();
    await vi.advanceTimersByTimeAsync(3_999);
    expect(sent).toEqual([["other chat", 100]]);
    await vi.advanceTimersByTimeAsync(2_000);
    await Promise.all([first, second, elsewhere]);
    expect(sent).toEqual([
      ["other chat", 100],
      ["first", 5_000],
      ["second", 5_000],
    ]);
  });

  it("stop() stops listening", async () => {
    const reachability = new Reachability();
    const box = new Outbox({ logger, limits: false, reachability });
    await box.stop();
    expect(() => {
      reachability.failed(0);
      reachability.answered();
    }).not.toThrow();
  });
});
