import { describe, expect, it } from "vitest";
import { noticePolicyOf, readConfig, type ConfigResult } from "../../lib/config/config.ts";
import { DEFAULT_NOTICES, isNoticeLevel, NOTICE_LEVELS } from "../../lib/notices/policy.ts";

const BASE = { HOME: "/home/tester", HERMES_TELEGRAM_TOKEN: "123456789:AAF-abc_DEF123xyz", HERMES_TELEGRAM_CHAT_ID: "42" };

function notices(result: ConfigResult) {
  if (!result.ok) throw new Error(`expected ok, got problems: ${result.problems.join(" | ")}`);
  return { level: result.config.notify, doneAfterMs: result.config.doneAfterMs };
}

describe("notice policy: the levels and the default", () => {
  it("by default reports done (after 30 s of work) and failed", () => {
    expect(DEFAULT_NOTICES).toEqual({ level: "all", doneAfterMs: 30_000 });
  });

  it("knows exactly the three levels, case-sensitively", () => {
    expect(NOTICE_LEVELS).toEqual(["all", "errors", "off"]);
    for (const level of NOTICE_LEVELS) expect(isNoticeLevel(level)).toBe(true);
    for (const text of ["", "ALL", "none", "error", " all"]) expect(isNoticeLevel(text)).toBe(false);
  });

  it("is what the config reader falls back to, for unset and for blank settings", () => {
    expect(notices(readConfig(BASE))).toEqual(DEFAULT_NOTICES);
    expect(notices(readConfig({ ...BASE, HERMES_NOTIFY: " ", HERMES_DONE_AFTER: "" }))).toEqual(DEFAULT_NOTICES);
  });

  it("fills what a partial config (the hub's) leaves out, each setting on its own", () => {
    expect(noticePolicyOf({})).toEqual(DEFAULT_NOTICES);
    expect(noticePolicyOf({ notify: "off" })).toEqual({ level: "off", doneAfterMs: 30_000 });
    expect(noticePolicyOf({ doneAfterMs: 0 })).toEqual({ level: "all", doneAfterMs: 0 });
    expect(noticePolicyOf({ notify: "errors", doneAfterMs: 5_000 })).toEqual({ level: "errors", doneAfterMs: 5_000 });
  });
});
