// `npm run bench`'s forms (bench/forms.ts): short by default, the long form behind --full or a row
// asked for alone, a number on the command line over both, and each row's note of its form.
import { describe, expect, it } from "vitest";
import { benchSettings, form } from "../../bench/forms.ts";

describe("the bench's forms", () => {
  it("runs every row short by default, long with --full", () => {
    const short = benchSettings([]);
    const full = benchSettings(["--full"]);
    expect(short).toMatchObject({ form: "short", only: [], memoryPairs: 1, startCostPairs: 2, weekRuns: 100, rounds: 4 });
    expect(full).toMatchObject({ form: "full", only: [], memoryPairs: 8, startCostPairs: 8, weekRuns: 1_000, rounds: 20, latencySamples: 500 });
    for (const key of ["latencySamples", "memoryQuestions", "floodQuestions", "failoverRuns", "outageRuns", "progressRounds"] as const)
      expect(short[key]).toBeLessThan(full[key]);
  });

  it("runs a row asked for alone in its long form, unless --short", () => {
    expect(benchSettings(["--only", "week"])).toMatchObject({ form: "full", only: ["week"], weekRuns: 1_000 });
    expect(benchSettings(["--only", "week", "--short"])).toMatchObject({ form: "short", weekRuns: 100 });
    expect(benchSettings(["--only", "start-cost,opencode-memory"]).only).toEqual(["start-cost", "opencode-memory"]);
  });

  it("takes a number given on the command line over either form", () => {
    expect(benchSettings(["--pairs", "3"])).toMatchObject({ memoryPairs: 3, startCostPairs: 3 });
    expect(benchSettings(["--full", "--runs", "50"]).weekRuns).toBe(50);
    expect(benchSettings(["--pairs", "-1"]).memoryPairs).toBe(1);
    expect(benchSettings(["--floor"]).memoryNoop).toBe(true);
  });

  it("says on each row which form it ran", () => {
    expect(form(benchSettings([]), "1 pairs", "memoryPairs")).toBe("short form: 1 pairs; --full: 8");
    expect(form(benchSettings(["--full"]), "8 pairs", "memoryPairs")).toBe("full form: 8 pairs");
  });
});
