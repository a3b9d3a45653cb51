// The stall detector on a fake clock (lib/walkaway/stall-detector.ts).
import { describe, expect, it } from "vitest";
import { StallDetector } from "../../lib/walkaway/stall-detector.ts";

const AFTER = 10 * 60_000;
const T0 = 1_000_000;

describe("a stalled run", () => {
  it("no event for the window: one alert, and the next event ends it", () => {
    const stalls = new StallDetector(AFTER);
    stalls.busy("s1", T0);
    expect(stalls.nextCheck()).toBe(T0 + AFTER);
    expect(stalls.check(T0 + AFTER - 1)).toEqual([]);
    expect(stalls.check(T0 + AFTER)).toEqual([{ sessionID: "s1", quietMs: AFTER }]);
    expect(stalls.check(T0 + 2 * AFTER)).toEqual([]); // one alert per stall
    expect(stalls.nextCheck()).toBeUndefined();
    expect(stalls.event("s1", T0 + 2 * AFTER)).toBe(true); // moving again
    expect(stalls.event("s1", T0 + 2 * AFTER + 1)).toBe(false);
    expect(stalls.check(T0 + 3 * AFTER)).toEqual([]);
    expect(stalls.check(T0 + 3 * AFTER + 1)).toHaveLength(1); // a new stall, a new alert
  });

  it("a tool running for the window is a stall however much it prints, until it completes", () => {
    const stalls = new StallDetector(AFTER);
    stalls.busy("s1", T0);
    stalls.tool("s1", { callID: "c1", tool: "bash", detail: "npm test", state: "running" }, T0 + 1_000);
    for (let t = T0 + 60_000; t < T0 + 1_000 + AFTER; t += 60_000) stalls.tool("s1", { callID: "c1", state: "running" }, t); // output as it comes
    const [stall] = stalls.check(T0 + 1_000 + AFTER);
    expect(stall).toMatchObject({ sessionID: "s1", tool: { callID: "c1", tool: "bash", detail: "npm test", runningMs: AFTER } });
    expect(stall!.quietMs).toBeLessThan(60_000);
    expect(stalls.event("s1", T0 + 2 * AFTER)).toBe(false); // still the same call: not moving
    expect(stalls.tool("s1", { callID: "c1", state: "completed" }, T0 + 2 * AFTER + 5)).toBe(true);
  });

  it("a run waiting on a phone prompt is not stalled, and its wait does not count afterwards", () => {
    const stalls = new StallDetector(AFTER);
    stalls.busy("s1", T0);
    stalls.tool("s1", { callID: "c1", tool: "bash", detail: "rm -rf build", state: "running" }, T0);
    stalls.promptOpened("s1");
    expect(stalls.check(T0 + 5 * AFTER)).toEqual([]);
    expect(stalls.nextCheck()).toBeUndefined();
    stalls.promptClosed("s1", T0 + 5 * AFTER);
    expect(stalls.check(T0 + 5 * AFTER + AFTER - 1)).toEqual([]);
    expect(stalls.check(T0 + 6 * AFTER)).toHaveLength(1);
  });

  it("Keep waiting silences the run for another window; a sub-agent's task call is no stall of its own", () => {
    const stalls = new StallDetector(AFTER);
    stalls.busy("s1", T0);
    stalls.tool("s1", { callID: "t", tool: "task", state: "running" }, T0);
    stalls.event("s1", T0 + AFTER - 1); // the sub-agent's events count as its root's
    expect(stalls.check(T0 + AFTER)).toEqual([]);
    expect(stalls.check(T0 + 2 * AFTER)).toHaveLength(1);
    expect(stalls.keepWaiting("s1", T0 + 2 * AFTER)).toBe(true);
    expect(stalls.isAlerted("s1")).toBe(false);
    expect(stalls.nextCheck()).toBe(T0 + 3 * AFTER);
    expect(stalls.check(T0 + 3 * AFTER - 1)).toEqual([]);
    expect(stalls.check(T0 + 3 * AFTER)).toHaveLength(1);
  });

  it("an idle run is forgotten and says whether its alert was up", () => {
    const stalls = new StallDetector(AFTER);
    stalls.busy("s1", T0);
    stalls.busy("s2", T0);
    stalls.check(T0 + AFTER);
    expect(stalls.idle("s1")).toBe(true);
    stalls.event("s2", T0 + AFTER);
    expect(stalls.idle("s2")).toBe(false);
    expect(stalls.size).toBe(0);
    expect(stalls.event("s1", T0 + 2 * AFTER)).toBe(false);
  });
});
