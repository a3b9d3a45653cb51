import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { waitAtMost, withTimeout } from "../../lib/util/with-timeout.ts";

const timedOut = () => new Error("no answer within 1 s");

/** A promise settled by hand. */
function pending<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe("withTimeout", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("passes the work's value on, and clears its timer", async () => {
    const work = pending<string>();
    const bounded = withTimeout(work.promise, 1_000, timedOut);
    work.resolve("answer");
    await expect(bounded).resolves.toBe("answer");
    expect(vi.getTimerCount()).toBe(0);
  });

  it("passes the work's own error on", async () => {
    const work = pending<string>();
    const bounded = withTimeout(work.promise, 1_000, timedOut);
    work.reject(new Error("Telegram 400: Bad Request"));
    await expect(bounded).rejects.toThrow("Telegram 400: Bad Request");
  });

  it("rejects with the caller's error once the time is up, and ignores the work's late answer", async () => {
    const work = pending<string>();
    const bounded = withTimeout(work.promise, 1_000, timedOut);
    const outcome = bounded.catch((error: Error) => error.message);
    await vi.advanceTimersByTimeAsync(999);
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(await outcome).toBe("no answer within 1 s");
    work.reject(new Error("late")); // read by withTimeout: no unhandled rejection
    await vi.advanceTimersByTimeAsync(0);
  });

  it("rejects with the signal's reason when stopped, also when stopped before it began", async () => {
    const stop = new AbortController();
    const bounded = withTimeout(pending<string>().promise, 1_000, timedOut, stop.signal);
    stop.abort(new Error("stopped"));
    await expect(bounded).rejects.toThrow("stopped");
    expect(vi.getTimerCount()).toBe(0);
    await expect(withTimeout(pending<string>().promise, 1_000, timedOut, stop.signal)).rejects.toThrow("stopped");
    expect(vi.getTimerCount()).toBe(0);
  });

  it("forgets the signal once the work answered", async () => {
    const stop = new AbortController();
    const removed = vi.spyOn(stop.signal, "removeEventListener");
    await withTimeout(Promise.resolve(1), 1_000, timedOut, stop.signal);
    expect(removed).toHaveBeenCalledWith("abort", expect.any(Function));
  });
});

describe("waitAtMost", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("ends when the work ends, and clears its timer", async () => {
    const work = pending<void>();
    let ended = false;
    const wait = waitAtMost(work.promise, 5_000).then(() => (ended = true));
    await vi.advanceTimersByTimeAsync(100);
    expect(ended).toBe(false);
    work.resolve();
    await wait;
    expect(vi.getTimerCount()).toBe(0);
  });

  it("ends after the time when the work never does", async () => {
    let ended = false;
    const wait = waitAtMost(pending<void>().promise, 5_000).then(() => (ended = true));
    await vi.advanceTimersByTimeAsync(4_999);
    expect(ended).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await wait;
    expect(ended).toBe(true);
  });

  it("resolves when the work fails, without leaving its rejection unhandled", async () => {
    vi.useRealTimers();
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    try {
      await expect(waitAtMost(Promise.reject(new Error("stop failed")), 5_000)).resolves.toBeUndefined();
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
    expect(unhandled).toEqual([]);
  });
});
