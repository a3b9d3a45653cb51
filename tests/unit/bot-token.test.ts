import { describe, expect, it } from "vitest";
import { readConfig } from "../../lib/config/config.ts";
import { looksLikeBotToken } from "../../lib/config/bot-token.ts";

const GOOD = ["123456789:AAF-abc_DEF123xyz", "1:a", "8123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw"];
const BAD = ["", "123456789", ":AAF", "abc:AAF", "123456789:", "123456789:AA F", "123456789:AA/F", " 123456789:AAF", "123456789:AAF\n", "-1:AAF", "١٢٣:AAF"];

describe("looksLikeBotToken", () => {
  it.each(GOOD)("takes %j", (token) => expect(looksLikeBotToken(token)).toBe(true));
  it.each(BAD)("refuses %j", (token) => expect(looksLikeBotToken(token)).toBe(false));

  it("is the check the config reader makes (after trimming)", () => {
    for (const token of [...GOOD, ...BAD.filter((token) => token.trim() !== "" && token.trim() === token)]) {
      const result = readConfig({ HOME: "/home/tester", HERMES_TELEGRAM_TOKEN: token, HERMES_TELEGRAM_CHAT_ID: "42" });
      const expected = looksLikeBotToken(token) ? "ok" : "HERMES_TELEGRAM_TOKEN does not look like a bot token (expected 123456:ABC…)";
      expect(result.ok ? "ok" : result.problems.join(" | ")).toBe(expected);
    }
  });
});
