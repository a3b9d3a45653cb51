// The run budget's arithmetic (lib/approvals/budgets.ts) and what the phone shows of approvals:
// flag lines escaped and ordered, the Stopped notice with Continue, callback data within 64 bytes.
import { describe, expect, it } from "vitest";
import { Budgets, parseBudget } from "../../lib/approvals/budgets.ts";
import { SessionRules } from "../../lib/approvals/session-rules.ts";
import { CATALOGS } from "../../lib/i18n/catalog.ts";
import { renderBudgetStop, renderRules } from "../../lib/telegram/render/render-approvals.ts";
import { FLAGS_SHOWN, flagLines } from "../../lib/telegram/render/render-flags.ts";

const t = CATALOGS.en;

describe("run budgets", () => {
  it("is off by default, set per session, and HERMES_RUN_BUDGET caps every run", () => {
    expect(new Budgets(undefined).check("s", { cost: 5, tokens: 10 })).toBeUndefined();
    const budgets = new Budgets(2);
    expect(budgets.capOf("s")).toBe(2);
    budgets.set("s", 0.5);
    expect(budgets.capOf("s")).toBe(0.5);
    budgets.set("s", undefined);
    expect(budgets.capOf("s")).toBeUndefined();
  });

  it("says over once per run, and Continue raises the cap with what was spent carried over", () => {
    const budgets = new Budgets(2);
    budgets.startRun("s", false);
    expect(budgets.check("s", { cost: 1.5, tokens: 100 })).toBeUndefined();
    expect(budgets.check("s", { cost: 2.03, tokens: 200 })).toEqual({ kind: "over", spent: 2.03, cap: 2 });
    expect(budgets.check("s", { cost: 2.2, tokens: 300 })).toBeUndefined();
    expect(budgets.raise("s", 2, 2.03)).toBe(4);
    budgets.startRun("s", true);
    expect(budgets.spent("s", 1)).toBeCloseTo(3.03);
    expect(budgets.check("s", { cost: 1, tokens: 10 })).toBeUndefined();
    const over = budgets.check("s", { cost: 2, tokens: 10 });
    expect(over).toMatchObject({ kind: "over", cap: 4 });
    expect(over?.kind === "over" ? over.spent : 0).toBeCloseTo(4.03);
  });

  // Issue 49: the budget stops again.
  it("stops again after a stop that failed, and after Continue even when no new run was seen", () => {
    const budgets = new Budgets(1);
    budgets.startRun("s", false);
    expect(budgets.check("s", { cost: 1.2, tokens: 100 })).toMatchObject({ kind: "over" });
    budgets.stopFailed("s");
    expect(budgets.check("s", { cost: 1.3, tokens: 110 })).toMatchObject({ kind: "over", cap: 1 });
    // Continue raises the cap; the run it starts may not be seen as new (the stopped one never went idle).
    budgets.raise("s", 1, 1.3);
    expect(budgets.check("s", { cost: 0.2, tokens: 10 })).toBeUndefined();
    expect(budgets.check("s", { cost: 0.8, tokens: 20 })).toMatchObject({ kind: "over", cap: 2 });
  });

  it("a model without prices: says so once per run instead of guessing", () => {
    const budgets = new Budgets(1);
    expect(budgets.check("s", { cost: 0, tokens: 5000 })).toEqual({ kind: "no-cost", cap: 1 });
    expect(budgets.check("s", { cost: 0, tokens: 9000 })).toBeUndefined();
  });

  it("reads /budget's argument", () => {
    expect(parseBudget("2.50")).toBe(2.5);
    expect(parseBudget("$2")).toBe(2);
    expect(parseBudget("off")).toBe("off");
    expect(parseBudget("lots")).toBeUndefined();
    expect(parseBudget("-1")).toBeUndefined();
  });
});

describe("approval messages", () => {
  it("shows each flag with its reason and its part, escaped, and counts what does not fit", () => {
    const lines = flagLines([{ category: "deletes", part: "rm -rf <dir> & more" }], t);
    expect(lines).toEqual(["⚠️ <b>Deletes or discards</b>: <code>rm -rf &lt;dir&gt; &amp; more</code>"]);
    const many = flagLines(
      Array.from({ length: FLAGS_SHOWN + 2 }, (_, i) => ({ category: "outside" as const, part: `/x${i}` })),
      t,
    );
    expect(many.at(-1)).toBe("⚠️ … and 2 more");
  });

  it("renders the Stopped notice with Continue, then its confirmation without buttons", () => {
    const stop = renderBudgetStop({ spent: 2.03, cap: 2, step: 2, directory: "/p/app", key: "abcdef123456" }, t);
    expect(stop.text).toContain("Stopped at $2.03 of a $2.00 budget");
    expect(stop.keyboard[0]![0]!.text).toBe("▶️ Continue (+$2.00)");
    expect(Buffer.byteLength(stop.keyboard[0]![0]!.callback_data!)).toBeLessThanOrEqual(64);
    const continued = renderBudgetStop({ spent: 2.03, cap: 2, step: 2, directory: "/p/app", continued: 4 }, t);
    expect(continued.text).toContain("Continued with a budget of $4.00");
    expect(continued.keyboard).toEqual([]);
  });

  it("lists session rules with a Revoke button each, within 64 bytes of callback data", () => {
    const rules = new SessionRules();
    rules.add({
      key: "a1b2c3d4e5f6",
      sessionID: "ses_1",
      directory: "/p/app",
      permission: "bash",
      cover: { kind: "command", entries: [] },
      scope: [{ kind: "open", text: "npm test" }],
    });
    const rendered = renderRules(rules.list(), () => "Fix <login>", t);
    expect(rendered.text).toContain("Fix &lt;login&gt;");
    expect(rendered.text).toContain("<code>npm test</code> with any arguments after it");
    expect(rendered.keyboard[0]![0]!.text).toBe("✖ Revoke 1");
    expect(Buffer.byteLength(rendered.keyboard[0]![0]!.callback_data!)).toBeLessThanOrEqual(64);
  });
});
