import pino from "pino";
import { afterEach, describe, expect, it, vi } from "vitest";
import { TelegramApiError, type TelegramApi } from "../../lib/telegram/wire/api.ts";
import { errorText } from "../../lib/util/error-text.ts";
import { backoffFor, startPoller, type Poller } from "../../lib/telegram/wire/poller.ts";
import { runToQuiet } from "../support/run-to-quiet.ts";

const logger = pino({ level: "silent" });

type Step = unknown[] | Error | unknown;

/** A TelegramApi whose getUpdates plays a script, then waits (like a long poll) until aborted. */
function fakeApi(script: Step[]) {
  const offsets: number[] = [];
  const signals: AbortSignal[] = [];
  const getUpdates = vi.fn(async (offset: number, _timeout: number, signal: AbortSignal): Promise<unknown[]> => {
    offsets.push(offset);
    signals.push(signal);
    if (script.length === 0) {
      return new Promise<unknown[]>((_, reject) => {
        if (signal.aborted) return reject(signal.reason);
        signal.addEventListener("abort", () => reject(signal.reason), { once: true });
      });
    }
    const step = script.shift();
    if (step instanceof Error) throw step;
    return step as unknown[];
  });
  const unused = () => {
    throw new Error("not used by the poller");
  };
  const api: TelegramApi = {
    getUpdates,
    sendMessage: unused,
    editMessage: unused,
    removeKeyboard: unused,
    sendDraft: unused,
    sendVoice: unused,
    deleteMessage: unused,
    sendDocument: unused,
    sendFile: unused,
    react: unused,
    setCommands: unused,
    createTopic: unused,
    renameTopic: unused,
    answerCallback: unused,
    getMe: unused,
    getFile: unused,
    downloadFile: unused,
  };
  return { api, getUpdates, offsets, signals, remaining: () => script.length };
}

const pollers: Poller[] = [];
afterEach(async () => {
  await Promise.all(pollers.splice(0).map((poller) => poller.stop()));
});

function start(options: Parameters<typeof startPoller>[0]): Poller {
  const poller = startPoller(options);
  pollers.push(poller);
  return poller;
}

describe("backoffFor", () => {
  it("honours retry_after exactly", () => {
    expect(backoffFor(new TelegramApiError(429, "Too Many Requests", 7), 1)).toBe(7000);
    expect(backoffFor(new TelegramApiError(429, "Too Many Requests", 7), 9)).toBe(7000);
    expect(backoffFor(new TelegramApiError(429, "Too Many Requests", 120), 1)).toBe(120_000);
    expect(backoffFor(new TelegramApiError(409, "Conflict", 3), 5)).toBe(3000);
  });

  it("grows exponentially from 500 ms and caps at 30 s", () => {
    const error = new Error("boom");
    expect([1, 2, 3, 4, 5, 6, 7, 8].map((failures) => backoffFor(error, failures))).toEqual([500, 1000, 2000, 4000, 8000, 16_000, 30_000, 30_000]);
    expect(backoffFor(error, 1000)).toBe(30_000);
    expect(backoffFor(new TelegramApiError(502, "Bad Gateway"), 2)).toBe(1000);
    expect(backoffFor("not an error", 1)).toBe(500);
  });

  it("tries again within a second while nothing answers: the long poll is what notices Telegram is back", () => {
    const refused = new TelegramApiError(0, "connect ECONNREFUSED");
    expect([1, 2, 3, 10, 1000].map((failures) => backoffFor(refused, failures))).toEqual([500, 1000, 1000, 1000, 1000]);
    // A server that answers with errors is not hammered.
    expect(backoffFor(new TelegramApiError(502, "Bad Gateway"), 6)).toBe(16_000);
  });

  it("starts 409 Conflict at a longer 5 s base", () => {
    const conflict = new TelegramApiError(409, "Conflict: terminated by other getUpdates request");
    expect([1, 2, 3, 4, 5].map((failures) => backoffFor(conflict, failures))).toEqual([5000, 10_000, 20_000, 30_000, 30_000]);
  });

  it("never exceeds the cap nor returns a non-finite delay", () => {
    for (const failures of [1, 10, 11, 50, 1e6, Number.MAX_SAFE_INTEGER]) {
      const delay = backoffFor(new Error("x"), failures);
      expect(Number.isFinite(delay)).toBe(true);
      expect(delay).toBeLessThanOrEqual(30_000);
    }
  });
});

describe("describe", () => {
  it("names errors and stringifies anything else", () => {
    expect(errorText(new TelegramApiError(400, "Bad Request"))).toBe("TelegramApiError: Telegram 400: Bad Request");
    expect(errorText(new TypeError("x"))).toBe("TypeError: x");
    expect(errorText("plain")).toBe("plain");
    expect(errorText(undefined)).toBe("undefined");
  });
});

describe("startPoller", () => {
  it("starts at offset 0 and advances to the last update_id + 1", async () => {
    const fake = fakeApi([[{ update_id: 10 }, { update_id: 11 }], [{ update_id: 12 }], []]);
    const seen: unknown[] = [];
    start({ api: fake.api, logger, onUpdate: (update) => void seen.push(update), sleep: async () => {} });
    await vi.waitFor(() => expect(fake.offsets).toHaveLength(4));
    expect(fake.offsets).toEqual([0, 12, 13, 13]);
    expect(seen).toEqual([{ update_id: 10 }, { update_id: 11 }, { update_id: 12 }]);
  });

  it("passes the long-poll timeout and a live signal", async () => {
    const fake = fakeApi([]);
    start({ api: fake.api, logger, onUpdate: () => {}, timeoutSeconds: 7 });
    await vi.waitFor(() => expect(fake.getUpdates).toHaveBeenCalledTimes(1));
    expect(fake.getUpdates.mock.calls[0]![1]).toBe(7);
    expect(fake.signals[0]!.aborted).toBe(false);
  });

  it("never moves the offset backwards, and skips updates without a numeric id for the offset", async () => {
    const fake = fakeApi([[{ update_id: 20 }, { update_id: 5 }, { update_id: "30" }, {}, null, 7]]);
    const seen: unknown[] = [];
    start({ api: fake.api, logger, onUpdate: (update) => void seen.push(update), sleep: async () => {} });
    await vi.waitFor(() => expect(fake.offsets).toHaveLength(2));
    expect(fake.offsets).toEqual([0, 21]);
    // Every update still reaches the handler; the handler decides what is garbage.
    expect(seen).toEqual([{ update_id: 20 }, { update_id: 5 }, { update_id: "30" }, {}, null, 7]);
  });

  it("treats a non-array answer as no updates", async () => {
    const fake = fakeApi([null, { ok: true }, "x"]);
    const onUpdate = vi.fn();
    start({ api: fake.api, logger, onUpdate, sleep: async () => {} });
    await vi.waitFor(() => expect(fake.offsets).toHaveLength(4));
    expect(fake.offsets).toEqual([0, 0, 0, 0]);
    expect(onUpdate).not.toHaveBeenCalled();
  });

  it("handles updates one at a time, in order, awaiting async handlers", async () => {
    const fake = fakeApi([[{ update_id: 1 }, { update_id: 2 }]]);
    const events: string[] = [];
    start({
      api: fake.api,
      logger,
      sleep: async () => {},
      onUpdate: async (update) => {
        const id = (update as { update_id: number }).update_id;
        events.push(`start ${id}`);
        await new Promise((resolve) => setTimeout(resolve, 5));
        events.push(`end ${id}`);
      },
    });
    await vi.waitFor(() => expect(fake.offsets).toHaveLength(2));
    expect(events).toEqual(["start 1", "end 1", "start 2", "end 2"]);
  });

  it("keeps polling when the handler throws or rejects", async () => {
    const fake = fakeApi([[{ update_id: 1 }, { update_id: 2 }, { update_id: 3 }], [{ update_id: 4 }]]);
    const seen: number[] = [];
    start({
      api: fake.api,
      logger,
      sleep: async () => {},
      onUpdate: async (update) => {
        const id = (update as { update_id: number }).update_id;
        seen.push(id);
        if (id === 1) throw new Error("sync-style failure");
        if (id === 2) return Promise.reject(new Error("async failure"));
      },
    });
    await vi.waitFor(() => expect(fake.offsets).toHaveLength(3));
    expect(seen).toEqual([1, 2, 3, 4]);
    expect(fake.offsets).toEqual([0, 4, 5]);
  });

  it("retries errors with growing backoff through the injected sleep, and resets after a success", async () => {
    const fake = fakeApi([
      new TelegramApiError(0, "ECONNRESET"),
      new TelegramApiError(502, "Bad Gateway"),
      new Error("weird"),
      [{ update_id: 1 }],
      new TelegramApiError(500, "Internal"),
    ]);
    const delays: number[] = [];
    const onUpdate = vi.fn();
    start({ api: fake.api, logger, onUpdate, sleep: async (ms) => void delays.push(ms) });
    await vi.waitFor(() => expect(fake.offsets).toHaveLength(6));
    expect(delays).toEqual([500, 1000, 2000, 500]);
    expect(fake.offsets).toEqual([0, 0, 0, 0, 2, 2]);
    expect(onUpdate).toHaveBeenCalledTimes(1);
  });

  it("after a failure polls without a long-poll timeout until a poll gets through, then long-polls again", async () => {
    const fake = fakeApi([new TelegramApiError(0, "connect ECONNREFUSED"), new TelegramApiError(0, "connect ECONNREFUSED"), [], []]);
    start({ api: fake.api, logger, onUpdate: () => {}, timeoutSeconds: 25, sleep: async () => {} });
    await vi.waitFor(() => expect(fake.getUpdates).toHaveBeenCalledTimes(5));
    expect(fake.getUpdates.mock.calls.map((call) => call[1])).toEqual([25, 0, 0, 25, 25]);
  });

  it("waits exactly retry_after on flood control", async () => {
    const fake = fakeApi([new TelegramApiError(429, "Too Many Requests: retry after 13", 13)]);
    const delays: number[] = [];
    start({ api: fake.api, logger, onUpdate: () => {}, sleep: async (ms) => void delays.push(ms) });
    await vi.waitFor(() => expect(fake.offsets).toHaveLength(2));
    expect(delays).toEqual([13_000]);
  });

  it("gives the sleep the stop signal", async () => {
    const fake = fakeApi([new Error("x")]);
    const signals: AbortSignal[] = [];
    const poller = start({ api: fake.api, logger, onUpdate: () => {}, sleep: async (_ms, signal) => void signals.push(signal) });
    await vi.waitFor(() => expect(signals).toHaveLength(1));
    expect(signals[0]!.aborted).toBe(false);
    await poller.stop();
    expect(signals[0]!.aborted).toBe(true);
  });

  it("calls onConflict once for a run of 409s, with the longer backoff", async () => {
    const conflict = () => new TelegramApiError(409, "Conflict: terminated by other getUpdates request");
    const fake = fakeApi([conflict(), conflict(), conflict()]);
    const onConflict = vi.fn();
    const delays: number[] = [];
    start({ api: fake.api, logger, onUpdate: () => {}, onConflict, sleep: async (ms) => void delays.push(ms) });
    await vi.waitFor(() => expect(fake.offsets).toHaveLength(4));
    expect(onConflict).toHaveBeenCalledTimes(1);
    expect(delays).toEqual([5000, 10_000, 20_000]);
  });

  it("reports a new conflict after polling recovered", async () => {
    const conflict = () => new TelegramApiError(409, "Conflict");
    const fake = fakeApi([conflict(), [], conflict(), conflict()]);
    const onConflict = vi.fn();
    start({ api: fake.api, logger, onUpdate: () => {}, onConflict, sleep: async () => {} });
    await vi.waitFor(() => expect(fake.offsets).toHaveLength(5));
    expect(onConflict).toHaveBeenCalledTimes(2);
  });

  it("does not call onConflict for other errors, and works without it", async () => {
    const onConflict = vi.fn();
    const first = fakeApi([new TelegramApiError(429, "flood", 1), new TelegramApiError(500, "x")]);
    start({ api: first.api, logger, onUpdate: () => {}, onConflict, sleep: async () => {} });
    await vi.waitFor(() => expect(first.offsets).toHaveLength(3));
    expect(onConflict).not.toHaveBeenCalled();

    const second = fakeApi([new TelegramApiError(409, "Conflict")]);
    start({ api: second.api, logger, onUpdate: () => {}, sleep: async () => {} });
    await vi.waitFor(() => expect(second.offsets).toHaveLength(2));
  });

  it("survives a sleep that rejects", async () => {
    const fake = fakeApi([new Error("x"), new Error("y")]);
    start({ api: fake.api, logger, onUpdate: () => {}, sleep: () => Promise.reject(new Error("sleep broke")) });
    await vi.waitFor(() => expect(fake.offsets).toHaveLength(3));
  });

  it("stop() aborts the pending long poll and ends the loop", async () => {
    const fake = fakeApi([[{ update_id: 1 }]]);
    const poller = start({ api: fake.api, logger, onUpdate: () => {}, sleep: async () => {} });
    await vi.waitFor(() => expect(fake.offsets).toHaveLength(2));
    const pending = fake.signals[1]!;
    expect(pending.aborted).toBe(false);
    await runToQuiet(() => poller.stop());
    expect(pending.aborted).toBe(true);
    await expect(poller.running).resolves.toBeUndefined();
    expect(fake.getUpdates).toHaveBeenCalledTimes(2);
  });

  it("stop() during a backoff does not poll again", async () => {
    const fake = fakeApi([new Error("down")]);
    let release!: () => void;
    const sleeping = new Promise<void>((resolve) => (release = resolve));
    const poller = start({
      api: fake.api,
      logger,
      onUpdate: () => {},
      sleep: async (_ms, signal) => {
        release();
        await new Promise<void>((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));
      },
    });
    await sleeping;
    await poller.stop();
    expect(fake.getUpdates).toHaveBeenCalledTimes(1);
  });

  it("stop() while a handler runs lets it finish and then ends", async () => {
    const fake = fakeApi([[{ update_id: 1 }, { update_id: 2 }]]);
    const seen: number[] = [];
    let poller!: Poller;
    poller = start({
      api: fake.api,
      logger,
      sleep: async () => {},
      onUpdate: async (update) => {
        const id = (update as { update_id: number }).update_id;
        seen.push(id);
        if (id === 1) void poller.stop();
      },
    });
    await poller.running;
    // The batch already fetched is still handled; no further poll happens.
    expect(seen).toEqual([1, 2]);
    expect(fake.getUpdates).toHaveBeenCalledTimes(1);
  });

  it("stop() is idempotent", async () => {
    const fake = fakeApi([]);
    const poller = start({ api: fake.api, logger, onUpdate: () => {} });
    await vi.waitFor(() => expect(fake.getUpdates).toHaveBeenCalledTimes(1));
    await poller.stop();
    await expect(poller.stop()).resolves.toBeUndefined();
  });

  it("the default sleep honours the backoff and is cut short by stop()", async () => {
    vi.useFakeTimers();
    try {
      const fake = fakeApi([new Error("down")]);
      const poller = start({ api: fake.api, logger, onUpdate: () => {} });
      await vi.advanceTimersByTimeAsync(0);
      expect(fake.getUpdates).toHaveBeenCalledTimes(1);
      await vi.advanceTimersByTimeAsync(499);
      expect(fake.getUpdates).toHaveBeenCalledTimes(1);
      await vi.advanceTimersByTimeAsync(1);
      expect(fake.getUpdates).toHaveBeenCalledTimes(2);
      await poller.stop();
    } finally {
      vi.useRealTimers();
    }
  });

  it("abandons a stalled request after the timeout plus the grace period (watchdog)", async () => {
    const fake = fakeApi([]);
    const delays: number[] = [];
    start({ api: fake.api, logger, onUpdate: () => {}, timeoutSeconds: 0, graceMs: 30, sleep: async (ms) => void delays.push(ms) });
    await vi.waitFor(() => expect(fake.getUpdates.mock.calls.length).toBeGreaterThanOrEqual(2), { timeout: 2000 });
    expect(fake.signals[0]!.aborted).toBe(true);
    expect(delays[0]).toBe(500);
  });
});
