// The start-cost row of `npm run bench` (bench/start-cost.ts) measures what it says, on the real
// OpenCode 1.18.33 and 2.0.15: one pair each (with Hermes, without), in one rotation. The timings
// are in order (spawn → listening → the project instance answered), Hermes polls the fake Telegram
// after it starts, and OpenCode without Hermes never polls. How fast is the bench's business
// (targets: ≤ 50 ms added, the first poll within 1 s of the instance), not this test's.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runStartCost, START_COST_VERSIONS, timeStart } from "../../bench/start-cost.ts";
import { startFakeTelegram, type FakeTelegram } from "../support/fake-telegram.ts";
import { startMockLlm, type MockLlm } from "../support/mock-llm.ts";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

describe.each(START_COST_VERSIONS)("Hermes' start cost on OpenCode %s", (version) => {
  let llm: MockLlm;
  let telegram: FakeTelegram;
  let logDir: string;
  beforeAll(async () => {
    llm = await startMockLlm();
    telegram = await startFakeTelegram();
    logDir = fs.mkdtempSync(path.join(os.tmpdir(), "hermes-start-cost-"));
  });
  afterAll(async () => {
    await telegram?.close();
    await llm?.close();
    if (logDir) fs.rmSync(logDir, { recursive: true, force: true });
  });

  it("times the instance's start with Hermes and without, and Hermes' first poll", async () => {
    const logFile = path.join(logDir, "hermes.log");
    const withHermes = await timeStart({ version, llmBaseURL: llm.baseURL, telegram, withHermes: true, logFile });
    expect(withHermes.listeningMs).toBeGreaterThan(0);
    expect(withHermes.instanceMs).toBeGreaterThanOrEqual(withHermes.listeningMs);
    // Hermes polled the fake Telegram, with its own token, after it started.
    expect(withHermes.pollAfterInstanceMs).toEqual(expect.any(Number));
    expect(withHermes.instanceMs + withHermes.pollAfterInstanceMs!).toBeGreaterThan(0);
    const polls = telegram.calls.filter((call) => call.method === "getUpdates").length;
    expect(polls).toBeGreaterThan(0);

    const without = await timeStart({ version, llmBaseURL: llm.baseURL, telegram, withHermes: false, logFile });
    expect(without.instanceMs).toBeGreaterThanOrEqual(without.listeningMs);
    expect(without.pollAfterInstanceMs).toBeUndefined();
    // The run without Hermes asked the fake Telegram nothing (a poll of the stopped Hermes would have come before its stop).
    expect(telegram.calls.filter((call) => call.method === "getUpdates")).toHaveLength(polls);
  }, 120_000);
});

describe("the start-cost row", () => {
  it("pairs the runs and reports the medians for 1.18.33", async () => {
    const lines: string[] = [];
    const result = await runStartCost({ pairs: 1, versions: ["1.18.33"], progress: (line) => lines.push(line) });
    const [row] = result.versions;
    expect(row).toMatchObject({ version: "1.18.33", pairs: 1, polled: true });
    expect(row!.withHermes).toHaveLength(1);
    expect(row!.without).toHaveLength(1);
    expect(row!.addedMs).toEqual([Math.round((row!.withHermes[0]!.instanceMs - row!.without[0]!.instanceMs) * 10) / 10]);
    expect(row!.medianPollAfterInstanceMs).toBe(row!.withHermes[0]!.pollAfterInstanceMs);
    expect(lines).toHaveLength(2);
  }, 120_000);
});
