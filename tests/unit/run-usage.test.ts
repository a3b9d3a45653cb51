// What a run used (pure): the latest counts of each message win, sub-agents count in their root's
// run, the context is the root's last answer, a new run starts from zero, and memory stays bounded.
import { describe, expect, it } from "vitest";
import type { MessageUsage } from "../../lib/hermes-events.ts";
import { RUNS_KEPT, RunUsage } from "../../lib/progress/run-usage.ts";
import { compactCount, contextUse, dollars, spentLine } from "../../lib/telegram/render/render-usage.ts";
import { CATALOGS } from "../../lib/i18n/catalog.ts";

const usage = (input: number, output: number, cost = 0, cacheRead = 0): MessageUsage => ({ input, output, reasoning: 0, cacheRead, cacheWrite: 0, cost });
const model = { providerID: "anthropic", modelID: "claude" };

describe("RunUsage", () => {
  it("a message's counts grow as OpenCode repeats them: the latest wins; the run sums its messages", () => {
    const runs = new RunUsage();
    runs.start("ses_1");
    runs.note("ses_1", "m1", usage(100, 0), true, model);
    runs.note("ses_1", "m1", usage(100, 50, 0.01), true, model);
    runs.note("ses_1", "m2", usage(1_000, 200, 0.02, 5_000), true);
    expect(runs.spent("ses_1")).toEqual({ tokens: 6_350, cost: 0.03, context: { tokens: 6_200, model } });
  });

  it("a sub-agent's messages count in the run, but the context is the root's own last answer", () => {
    const runs = new RunUsage();
    runs.start("ses_1");
    runs.note("ses_1", "m1", usage(500, 10), true, model);
    runs.note("ses_1", "child-m1", usage(90_000, 10), false, model);
    expect(runs.spent("ses_1")?.tokens).toBe(90_520);
    expect(runs.spent("ses_1")?.context?.tokens).toBe(510);
  });

  it("a new run of the session counts from zero; nothing counted is nothing", () => {
    const runs = new RunUsage();
    runs.note("ses_1", "m1", usage(100, 5), true);
    runs.start("ses_1");
    expect(runs.spent("ses_1")).toBeUndefined();
    runs.note("ses_1", "m2", usage(0, 0), true);
    expect(runs.spent("ses_1")).toBeUndefined();
  });

  it("bounded: a run of thousands of messages keeps its total exact; only the last runs are kept", () => {
    const runs = new RunUsage();
    runs.start("long");
    for (let i = 0; i < 5_000; i++) runs.note("long", `m${i}`, usage(10, 1, 0.001), true);
    expect(runs.spent("long")?.tokens).toBe(55_000);
    expect(runs.spent("long")?.cost).toBeCloseTo(5, 6);
    for (let i = 0; i < RUNS_KEPT * 3; i++) runs.note(`ses_${i}`, "m", usage(1, 1), true);
    expect(runs.size).toBe(RUNS_KEPT);
    expect(runs.spent("long")).toBeUndefined();
    runs.forget(`ses_${RUNS_KEPT * 3 - 1}`);
    expect(runs.size).toBe(RUNS_KEPT - 1);
  });
});

describe("what a run used, rendered", () => {
  const t = CATALOGS.en;
  it("compact counts and dollars", () => {
    expect([0, 850, 1_000, 12_400, 99_960, 200_000, 999_600, 1_234_567].map(compactCount)).toEqual(["0", "850", "1k", "12.4k", "100k", "200k", "1M", "1.2M"]);
    expect([0, 0.0004, 0.001, 0.031, 0.5, 0.999, 12.345].map(dollars)).toEqual([undefined, "<$0.001", "$0.001", "$0.031", "$0.50", "$1.00", "$12.35"]);
  });

  it("`12.4k tokens · $0.031`, tokens alone for a model without a price, nothing when nothing was counted", () => {
    expect(spentLine({ tokens: 12_400, cost: 0.031 }, t)).toBe("12.4k tokens · $0.031");
    expect(spentLine({ tokens: 850, cost: 0 }, t)).toBe("850 tokens");
    expect(spentLine({ tokens: 0, cost: 0 }, t)).toBeUndefined();
    expect(spentLine(undefined, t)).toBeUndefined();
  });

  it("`🧠 41% of 200k`, the count alone when the model's window is unknown, nothing when nothing was counted", () => {
    expect(contextUse({ tokens: 82_000, window: 200_000 }, t)).toBe("🧠 41% of 200k");
    expect(contextUse({ tokens: 8_200 }, t)).toBe("🧠 8.2k tokens");
    expect(contextUse({ tokens: 0, window: 200_000 }, t)).toBeUndefined();
    expect(contextUse(undefined, CATALOGS.zh)).toBeUndefined();
  });
});
