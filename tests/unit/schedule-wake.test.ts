// The schedules' wake-up timer (lib/schedules/wake.ts) on a fake clock: it sleeps until the next
// run of a served project (or another's turning missed), re-reads the file only when it changed,
// never spins on a run it could not claim, and is unref'd.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { LATE_LIMIT_MS, type Here } from "../../lib/schedules/due.ts";
import type { Schedule } from "../../lib/schedules/schedule.ts";
import { RECHECK_MS, ScheduleWake } from "../../lib/schedules/wake.ts";

const T0 = 1_800_000_000_000;
const here: Here = { bot: "b", chatId: 1, directories: ["/p"] };

function schedule(next: number, directory = "/p"): Schedule {
  return { id: "0123abcd", bot: "b", chatId: 1, directory, when: { kind: "interval", minutes: 1, anchor: 0 }, instruction: "x", next, created: 0 };
}

function fakeStore(initial: Schedule[]) {
  const store = {
    schedules: initial,
    version: 0,
    reads: 0,
    read: () => {
      store.reads++;
      return { ok: true as const, schedules: store.schedules };
    },
    stamp: () => String(store.version),
  };
  return store;
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(T0);
});
afterEach(() => vi.useRealTimers());

describe("the wake-up timer", () => {
  it("fires at a served run's time, not before, and reads the file again only once it changed", async () => {
    const store = fakeStore([schedule(T0 + 90_000)]);
    const onDue = vi.fn(async () => {
      store.schedules = [schedule(T0 + 150_000)];
      store.version++;
    });
    const wake = new ScheduleWake({ store, here: () => here, onDue });
    wake.start();
    await vi.advanceTimersByTimeAsync(89_999);
    expect(onDue).not.toHaveBeenCalled();
    expect(store.reads).toBe(1); // two rechecks (30 s, 60 s) found the file unchanged
    await vi.advanceTimersByTimeAsync(1);
    expect(onDue).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(onDue).toHaveBeenCalledTimes(2);
    wake.stop();
  });

  it("sees a schedule another process added within RECHECK_MS", async () => {
    const store = fakeStore([]);
    const onDue = vi.fn(async () => undefined);
    const wake = new ScheduleWake({ store, here: () => here, onDue });
    wake.start();
    store.schedules = [schedule(T0 + 10_000)];
    store.version++;
    await vi.advanceTimersByTimeAsync(RECHECK_MS);
    expect(onDue).toHaveBeenCalledTimes(1); // found at the recheck, already due
    wake.stop();
  });

  it("wakes for another project's run only once it would be missed, and does not spin on a run it could not claim", async () => {
    const store = fakeStore([schedule(T0 + 1_000, "/elsewhere")]);
    const onDue = vi.fn(async () => undefined); // claims nothing: the file stays as it is
    const wake = new ScheduleWake({ store, here: () => here, onDue });
    wake.start();
    await vi.advanceTimersByTimeAsync(1_000 + LATE_LIMIT_MS);
    expect(onDue).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(onDue).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(RECHECK_MS - 1);
    expect(onDue).toHaveBeenCalledTimes(1);
    wake.stop();
    await vi.advanceTimersByTimeAsync(10 * RECHECK_MS);
    expect(onDue).toHaveBeenCalledTimes(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("keeps no process alive: its one timer is unref'd", () => {
    vi.useRealTimers();
    const wake = new ScheduleWake({ store: fakeStore([]), here: () => here, onDue: async () => undefined });
    const unref = vi.spyOn(globalThis, "setTimeout");
    wake.start();
    const timer = unref.mock.results.at(-1)?.value as NodeJS.Timeout;
    expect(timer.hasRef()).toBe(false);
    wake.stop();
    unref.mockRestore();
  });
});
