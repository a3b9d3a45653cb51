// HERMES_RUN_BUDGET: off by default, dollars when set (a leading "$" allowed), otherwise ignored (no
// budget, said once; Hermes stays on); from the environment only.
import { describe, expect, it } from "vitest";
import { readConfig } from "../../lib/config/config.ts";

const BASE = { HOME: "/home/tester", HERMES_TELEGRAM_TOKEN: "123456:ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghi", HERMES_TELEGRAM_CHAT_ID: "42" };

const budgetOf = (env: Record<string, string>, options?: unknown) => {
  const result = readConfig({ ...BASE, ...env }, options);
  return result.ok ? result.config.runBudget : result.problems;
};

describe("HERMES_RUN_BUDGET", () => {
  it("is off unless set", () => {
    expect(budgetOf({})).toBeUndefined();
    expect(budgetOf({ HERMES_RUN_BUDGET: "off" })).toBeUndefined();
  });

  it("reads dollars", () => {
    expect(budgetOf({ HERMES_RUN_BUDGET: "2.50" })).toBe(2.5);
    expect(budgetOf({ HERMES_RUN_BUDGET: "$2" })).toBe(2);
  });

  it("ignores what is not an amount, and says so: no budget, Hermes on", () => {
    const result = readConfig({ ...BASE, HERMES_RUN_BUDGET: "lots" });
    expect(result.ok).toBe(true);
    expect(result.ok && result.config.runBudget).toBeUndefined();
    expect(result.ok && result.config.ignored).toEqual([expect.stringContaining("HERMES_RUN_BUDGET must be an amount in dollars")]);
  });
});
