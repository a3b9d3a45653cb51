// Stop's messages in both languages, with a hostile session title: valid Telegram HTML, the title
// marked and escaped, buttons only where a tap can still do something.
import { describe, expect, it } from "vitest";
import { CATALOGS } from "../../lib/i18n/catalog.ts";
import { decodeCallback } from "../../lib/telegram/codec.ts";
import { PICKER_ROWS, renderStop, renderStopFailed, renderStopPicker, type StopOutcome } from "../../lib/telegram/render/render-stop.ts";
import { parseTelegramHtml } from "../support/fake-telegram.ts";
import { trustedHtml } from "../../lib/text/html.ts";

const TITLE = `<script>&\u202E${" ".repeat(500)}end`;
const OUTCOMES: StopOutcome[] = ["running", "confirm", "stopping", "stopped", "notRunning"];

describe.each(["en", "zh"] as const)("Stop's messages in %s", (language) => {
  const t = CATALOGS[language];
  const session = { project: "proj", sessionTitle: TITLE, t };

  it("every outcome is valid HTML with the title marked and escaped; only running and confirm keep a button", () => {
    for (const outcome of OUTCOMES) {
      const rendered = renderStop(outcome, "Key12345", session);
      const parsed = parseTelegramHtml(rendered.text);
      expect(parsed.ok, `${outcome}: ${rendered.text}`).toBe(true);
      expect(rendered.text).toContain("&lt;script&gt;&amp;⟨U+202E⟩");
      expect(rendered.text).not.toContain(" ".repeat(50));
      expect(rendered.keyboard.length > 0).toBe(outcome === "running" || outcome === "confirm");
    }
    const confirm = renderStop("confirm", "Key12345", session).keyboard[0]![0]!;
    expect(confirm).toMatchObject({ text: t.button.stopConfirm, style: "danger" });
    expect(decodeCallback(confirm.callback_data)).toMatchObject({ key: "Key12345", action: "halt" });
  });

  it("a refused stop says why (escaped by the caller) and offers the confirmation again", () => {
    const rendered = renderStopFailed("Key12345", session, trustedHtml("OpenCode answered 500: &lt;boom&gt;"));
    expect(parseTelegramHtml(rendered.text).ok).toBe(true);
    expect(rendered.keyboard.flat().map((b) => b.text)).toEqual([t.button.stopConfirm]);
  });

  it("the picker has one button per busy session, at most PICKER_ROWS, and counts the rest", () => {
    const sessions = Array.from({ length: PICKER_ROWS + 5 }, (_, i) => ({ key: `Key${String(i).padStart(5, "0")}`, project: "proj", title: `${TITLE} ${i}` }));
    const rendered = renderStopPicker(sessions, t);
    expect(rendered.keyboard).toHaveLength(PICKER_ROWS);
    expect(rendered.keyboard.every((row) => row.length === 1 && Array.from(row[0]!.text).length <= 64)).toBe(true);
    expect(rendered.text).toContain(t.status.andMore(5));
    expect(parseTelegramHtml(rendered.text).ok).toBe(true);
  });
});
