// The signal a "nothing happened" check waits for, instead of a sleep: everything the code under
// test does after an input, run to its end on a fake clock.
import { vi } from "vitest";

/**
 * Runs `input` on a fake clock, then every timer set meanwhile (a typed text's quiet time, "Done"'s
 * grace, an album's wait, a retry…), however long, and what those timers start, until no timer is
 * left; real time is back afterwards. A check made then that nothing was sent is not early. What it
 * can't see: timers set before the call (they stay on the real clock) and real I/O, so it suits code
 * whose other side answers without either (the in-memory Telegram, the fake OpenCode of bridge-rig.ts).
 */
export async function runToQuiet<T>(input: () => T | Promise<T>): Promise<T> {
  vi.useFakeTimers();
  try {
    const result = await input();
    await vi.runAllTimersAsync();
    return result;
  } finally {
    vi.useRealTimers();
  }
}
