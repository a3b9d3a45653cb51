import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { sleep } from "../../lib/util/sleep.ts";

describe("sleep", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  /** Whether the promise has settled once pending microtasks ran. */
  async function settled(promise: Promise<unknown>): Promise<boolean> {
    let done = false;
    void promise.then(() => (done = true));
    await vi.advanceTimersByTimeAsync(0);
    return done;
  }

  it("resolves after the time, not before", async () => {
    const wait = sleep(1_000);
    await vi.advanceTimersByTimeAsync(999);
    expect(await settled(wait)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await settled(wait)).toBe(true);
  });

  it("resolves (never rejects) as soon as the signal aborts, and leaves no timer behind", async () => {
    const stop = new AbortController();
    const wait = sleep(60_000, stop.signal);
    expect(await settled(wait)).toBe(false);
    stop.abort(new Error("stopped"));
    await expect(wait).resolves.toBeUndefined();
    expect(vi.getTimerCount()).toBe(0);
  });

  it("resolves at once when the signal has aborted already", async () => {
    const stop = new AbortController();
    stop.abort();
    expect(await settled(sleep(60_000, stop.signal))).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("removes its abort listener when the time is up", async () => {
    const stop = new AbortController();
    const removed = vi.spyOn(stop.signal, "removeEventListener");
    const wait = sleep(10, stop.signal);
    await vi.advanceTimersByTimeAsync(10);
    await wait;
    expect(removed).toHaveBeenCalledWith("abort", expect.any(Function));
  });
});
