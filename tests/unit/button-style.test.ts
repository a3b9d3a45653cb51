// Button colours: permissions and confirmations carry them, the fake Telegram checks their values,
// and against a Bot API server that refuses the field the same keyboard goes out without them,
// once refused, never tried again by that client.
import { afterEach, describe, expect, it } from "vitest";
import { ButtonStyles, refusesStyles, withoutStyles } from "../../lib/telegram/wire/button-style.ts";
import { createTelegramApi } from "../../lib/telegram/wire/api.ts";
import type { InlineButton } from "../../lib/telegram/wire/rendered-message.ts";
import { DEFAULT_CHAT_ID, startFakeTelegram, type FakeTelegram } from "../support/fake-telegram.ts";
import { trustedHtml } from "../../lib/text/html.ts";

const KEYBOARD: InlineButton[][] = [
  [{ text: "Allow once", callback_data: "h1:abcd:a", style: "success" }],
  [
    { text: "Reject", callback_data: "h1:abcd:r", style: "danger" },
    { text: "Reject with feedback", callback_data: "h1:abcd:f" },
  ],
];

let fake: FakeTelegram | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const sendCalls = () => fake!.calls.filter((call) => call.method === "sendMessage" || call.method === "editMessageText");

describe("button colours, pure", () => {
  it("withoutStyles keeps text, data and layout, drops only the colour", () => {
    expect(withoutStyles(KEYBOARD)).toEqual([
      [{ text: "Allow once", callback_data: "h1:abcd:a" }],
      [
        { text: "Reject", callback_data: "h1:abcd:r" },
        { text: "Reject with feedback", callback_data: "h1:abcd:f" },
      ],
    ]);
  });

  it("only a 400 naming the field counts as a refusal", () => {
    const error = (code: number, message: string) => Object.assign(new Error(message), { code });
    expect(refusesStyles(error(400, `Telegram 400: Bad Request: can't parse inline keyboard button: Field "style" is unexpected`))).toBe(true);
    expect(refusesStyles(error(400, "Telegram 400: Bad Request: message is too long"))).toBe(false);
    expect(refusesStyles(error(500, "Telegram 500: style server trouble"))).toBe(false);
  });

  it("any other error is not retried without colours", async () => {
    const styles = new ButtonStyles();
    let calls = 0;
    await expect(
      styles.send(KEYBOARD, async () => {
        calls++;
        throw Object.assign(new Error("Telegram 400: Bad Request: chat not found"), { code: 400 });
      }),
    ).rejects.toThrow(/chat not found/);
    expect(calls).toBe(1);
    expect(styles.refused).toBe(false);
  });
});

describe("button colours against the fake Telegram", () => {
  it("a server that knows the field gets the colours, and checks their values", async () => {
    fake = await startFakeTelegram();
    const api = createTelegramApi(fake.token, fake.apiRoot);
    const { messageId } = await api.sendMessage(DEFAULT_CHAT_ID, trustedHtml("Allow?"), { keyboard: KEYBOARD });
    const sent = fake.messages().find((m) => m.messageId === messageId)!;
    expect(fake.buttons(sent).map((b) => b.style)).toEqual(["success", "danger", undefined]);
    // Straight to the fake: Hermes itself would resend a refused keyboard without colours.
    const raw = await fetch(`${fake.apiRoot}/bot${fake.token}/sendMessage`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ chat_id: DEFAULT_CHAT_ID, text: "x", reply_markup: { inline_keyboard: [[{ text: "x", callback_data: "y", style: "red" }]] } }),
    });
    expect(raw.status).toBe(400);
    expect(((await raw.json()) as { description: string }).description).toMatch(/invalid button style "red"/);
  });

  it("a server that refuses the field gets the same keyboard without colours, and is not asked again", async () => {
    fake = await startFakeTelegram({ buttonStyles: "refused" });
    const api = createTelegramApi(fake.token, fake.apiRoot);
    const first = await api.sendMessage(DEFAULT_CHAT_ID, trustedHtml("Allow?"), { keyboard: KEYBOARD });
    const sent = fake.messages().find((m) => m.messageId === first.messageId)!;
    expect(fake.buttons(sent)).toEqual(withoutStyles(KEYBOARD).flat());
    expect(sendCalls().map((call) => call.status)).toEqual([400, 200]);

    await api.sendMessage(DEFAULT_CHAT_ID, trustedHtml("Allow again?"), { keyboard: KEYBOARD });
    await api.editMessage(DEFAULT_CHAT_ID, first.messageId, trustedHtml("Allow, edited?"), KEYBOARD);
    expect(sendCalls().map((call) => call.status)).toEqual([400, 200, 200, 200]);
    expect(fake.buttons(fake.messages().find((m) => m.messageId === first.messageId)!).every((b) => b.style === undefined)).toBe(true);
  });

  it("an edit is the first to meet the refusal: it falls back too", async () => {
    fake = await startFakeTelegram({ buttonStyles: "refused" });
    const api = createTelegramApi(fake.token, fake.apiRoot);
    const { messageId } = await api.sendMessage(DEFAULT_CHAT_ID, trustedHtml("Plain"));
    await api.editMessage(DEFAULT_CHAT_ID, messageId, trustedHtml("Allow?"), KEYBOARD);
    const sent = fake.messages().find((m) => m.messageId === messageId)!;
    expect(sent.text).toBe("Allow?");
    expect(fake.buttons(sent)).toEqual(withoutStyles(KEYBOARD).flat());
  });
});
