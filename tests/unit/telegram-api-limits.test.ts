// The telegraf-backed API is the last line before Telegram: captions are cut as HTML (never inside
// an entity or a tag), and short plain fields on whole graphemes. Checked against the fake
// Telegram over loopback, which parses and measures them as Telegram does.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTelegramApi, type TelegramApi } from "../../lib/telegram/wire/api.ts";
import { graphemes } from "../../lib/text/html.ts";
import { DEFAULT_CHAT_ID, parseTelegramHtml, startFakeTelegram, type FakeTelegram } from "../support/fake-telegram.ts";
import { trustedHtml } from "../../lib/text/html.ts";

const FAMILY = "👨‍👩‍👧‍👦";
let fake: FakeTelegram;
let api: TelegramApi;

beforeAll(async () => {
  fake = await startFakeTelegram();
  api = createTelegramApi(fake.token, fake.apiRoot);
});
afterAll(async () => {
  await fake.close();
});

const whole = (text: string) => graphemes(text.replace(/…$/, "")).every((part) => part === FAMILY);

describe("TelegramApi on hostile text", () => {
  it("a caption over 1024 full of entities is cut as HTML: the file still goes out", async () => {
    const caption = `Full diff of <code>${"&amp;&lt;".repeat(400)}</code>`;
    const { messageId } = await api.sendDocument(DEFAULT_CHAT_ID, "x.diff", "+a\n", { caption: trustedHtml(caption) });
    const sent = fake.messages().find((m) => m.messageId === messageId)!;
    const parsed = parseTelegramHtml(sent.document!.caption!);
    expect(parsed.ok).toBe(true);
    expect(sent.document!.caption!.length).toBeLessThanOrEqual(1024);
  });

  it("callback answers, reply placeholders and topic names never split an emoji", async () => {
    const { messageId } = await api.sendMessage(DEFAULT_CHAT_ID, trustedHtml("tap"), { keyboard: [[{ text: "go", callback_data: "h1:abcd:x" }]] });
    const update = fake.tapUpdate(fake.messages().find((m) => m.messageId === messageId)!, "go");
    await api.answerCallback(update.callback_query.id, FAMILY.repeat(100));
    const answer = await fake.waitForCallbackAnswer(update.callback_query.id);
    expect(answer.text!.length).toBeLessThanOrEqual(200);
    expect(whole(answer.text!)).toBe(true);

    const ask = await api.sendMessage(DEFAULT_CHAT_ID, trustedHtml("reply"), { forceReply: { placeholder: FAMILY.repeat(20) } });
    const placeholder = fake.messages().find((m) => m.messageId === ask.messageId)!.replyMarkup.input_field_placeholder as string;
    expect(placeholder.length).toBeLessThanOrEqual(64);
    expect(whole(placeholder)).toBe(true);

    await api.createTopic(-1001234, FAMILY.repeat(40));
    const name = fake.topics().at(-1)!.name;
    expect(name.length).toBeLessThanOrEqual(128);
    expect(name.length).toBeGreaterThan(100);
    expect(whole(name)).toBe(true);
  });
});
