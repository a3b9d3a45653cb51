import { describe, expect, it } from "vitest";
import { Reachability } from "../../lib/telegram/wire/reachability.ts";
import { retryWait, whenBack } from "../../lib/telegram/wire/retry-wait.ts";

describe("Reachability", () => {
  it("tells its listeners once when a call succeeds after calls got no answer or a server error", () => {
    const reachability = new Reachability();
    let back = 0;
    reachability.onBack(() => back++);
    reachability.answered();
    expect(back).toBe(0); // nothing was wrong
    reachability.failed(0);
    reachability.failed(0);
    expect(reachability.troubled).toBe(true);
    reachability.answered();
    reachability.answered();
    expect(back).toBe(1);
    reachability.failed(502);
    reachability.answered();
    expect(back).toBe(2);
  });

  it("flood control and refused requests are no outage: Telegram answered", () => {
    const reachability = new Reachability();
    let back = 0;
    reachability.onBack(() => back++);
    for (const code of [429, 400, 403, 409]) reachability.failed(code);
    expect(reachability.troubled).toBe(false);
    reachability.answered();
    expect(back).toBe(0);
  });

  it("a listener that unsubscribed hears nothing more", () => {
    const reachability = new Reachability();
    let back = 0;
    const unsubscribe = reachability.onBack(() => back++);
    unsubscribe();
    reachability.failed(0);
    reachability.answered();
    expect(back).toBe(0);
  });
});

describe("retry waits", () => {
  const backoff = { minMs: 500, maxMs: 30_000 };

  it("backs off from 500 ms doubling to 30 s, or waits exactly the retry_after Telegram gave", () => {
    expect([1, 2, 3, 6, 7, 20].map((attempts) => retryWait(undefined, attempts, 1_000, backoff))).toEqual(
      [1_500, 2_000, 3_000, 17_000, 31_000, 31_000].map((until) => ({ until, told: false })),
    );
    expect(retryWait(5, 3, 1_000, backoff)).toEqual({ until: 6_000, told: true });
  });

  it("Telegram back ends a backoff at once, and leaves a retry_after as it was", () => {
    const backedOff = retryWait(undefined, 6, 0, backoff); // until 16 s
    expect(whenBack(backedOff, 4_000)).toEqual({ until: 4_000, told: false });
    const told = retryWait(30, 1, 0, backoff);
    expect(whenBack(told, 4_000)).toBe(told);
    const over = { until: 3_000, told: false };
    expect(whenBack(over, 4_000)).toBe(over); // already due: unchanged
  });
});
