// 150 options: every keyboard stays within what Telegram accepts (100 buttons, 8 a row, 64-byte
// callback data), and every option can still be chosen, a page at a time.
import { describe, expect, it } from "vitest";
import { pageCount, pageRange, OPTIONS_PER_PAGE } from "../../lib/telegram/render/option-pages.ts";
import { question, request, setup } from "../support/bridge-rig.ts";
import { parseTelegramHtml } from "../support/fake-telegram.ts";
import { checkReplyMarkup, MAX_INLINE_BUTTONS } from "../support/telegram/validate.ts";
import type { MemoryMessage } from "../support/memory-telegram.ts";

const options = (count: number) => Array.from({ length: count }, (_, i) => ({ label: `choice ${i + 1}`, description: `about ${i + 1}` }));

function withinTelegram(message: MemoryMessage): string {
  expect(() => checkReplyMarkup({ inline_keyboard: message.keyboard })).not.toThrow();
  expect(message.keyboard.flat().length).toBeLessThanOrEqual(MAX_INLINE_BUTTONS);
  const parsed = parseTelegramHtml(message.text);
  if (!parsed.ok) throw new Error(parsed.error);
  expect(parsed.plain.length).toBeLessThanOrEqual(4096);
  return parsed.plain;
}

describe("option pages", () => {
  it("splits into pages of 50, clamped to the list", () => {
    expect(OPTIONS_PER_PAGE).toBe(50);
    expect([pageCount(0), pageCount(50), pageCount(51), pageCount(150), pageCount(5000)]).toEqual([1, 1, 2, 3, 20]);
    expect(pageRange(2, 150)).toEqual({ start: 100, end: 150 });
    expect(pageRange(9, 120)).toEqual({ start: 100, end: 120 });
  });

  it("150 options: the first page is offered, ◀ ▶ turn pages, and option 137 can be chosen", async () => {
    const { opencode, tap, ask, settled } = setup();
    const message = await ask(request([question({ question: "Which of 150?", options: options(150), custom: false })]));
    let text = withinTelegram(message);
    expect(text).toContain("1. choice 1");
    expect(text).toContain("50. choice 50");
    expect(text).not.toContain("51. choice 51");
    expect(text).toContain("Options 1–50 of 150");
    expect(message.keyboard.flat().map((b) => b.text)).toContain("More options ▶");
    await tap(message, "More options ▶");
    await expect.poll(() => message.text).toContain("Options 51–100 of 150");
    withinTelegram(message);
    await tap(message, "More options ▶");
    await expect.poll(() => message.text).toContain("Options 101–150 of 150");
    text = withinTelegram(message);
    expect(text).toContain("137. choice 137");
    expect(message.keyboard.flat().map((b) => b.text)).toContain("◀ Previous options");
    await tap(message, "137. choice 137");
    await settled(message, "Answered from Telegram");
    expect(opencode.posts[0]?.body).toEqual({ answers: [["choice 137"]] });
  });

  it("multiple choice keeps ticks across pages", async () => {
    const { opencode, tap, ask, settled } = setup();
    const message = await ask(request([question({ question: "Pick several", options: options(120), multiple: true, custom: false })]));
    await tap(message, "2. choice 2");
    await expect.poll(() => message.keyboard.flat().map((b) => b.text)).toContain("✅ 2. choice 2");
    await tap(message, "More options ▶");
    await expect.poll(() => message.text).toContain("Options 51–100 of 120");
    await tap(message, "77. choice 77");
    await expect.poll(() => message.keyboard.flat().map((b) => b.text)).toContain("✅ 77. choice 77");
    withinTelegram(message);
    await tap(message, "Done");
    await settled(message, "Answered from Telegram");
    expect(opencode.posts[0]?.body).toEqual({ answers: [["choice 2", "choice 77"]] });
  });
});
