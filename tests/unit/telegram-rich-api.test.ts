// The Bot API client's rich messages (issue 52): sendRichMessage with the rich HTML, keyboard,
// reply, silence and topic of sendMessage; a server without rich messages answers the first one
// "method not found" and the client never asks again (RichMessagesMissing, `first` only once);
// HERMES_RICH=off leaves the method out. The secret scrubber and the machine label cover it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { labelMessages } from "../../lib/telegram/render/machine-label.ts";
import { createTelegramApi, RichMessagesMissing } from "../../lib/telegram/wire/api.ts";
import { scrubbedTelegram } from "../../lib/telegram/wire/scrubbed-api.ts";
import { escapeRich, rich } from "../../lib/rich/rich-html.ts";
import { escapeHtml } from "../../lib/text/html.ts";
import { DEFAULT_CHAT_ID, startFakeTelegram, type FakeTelegram } from "../support/fake-telegram.ts";

let tg: FakeTelegram;
beforeAll(async () => {
  tg = await startFakeTelegram({ richMessages: "supported" });
});
afterAll(() => tg.close());

describe("sendRichMessage", () => {
  it("sends the rich HTML with sendMessage's options, and no parse_mode", async () => {
    const api = createTelegramApi(tg.token, tg.apiRoot);
    const first = await api.sendMessage(DEFAULT_CHAT_ID, escapeHtml("x"));
    const sent = await api.sendRichMessage!(DEFAULT_CHAT_ID, rich`<h2>Done</h2><p>${escapeRich("a < b & c")}</p>`, {
      keyboard: [[{ text: "Undo", callback_data: "u1", style: "danger" }]],
      replyTo: first.messageId,
      silent: true,
    });
    const call = tg.calls.find((c) => c.method === "sendRichMessage")!;
    expect(call.payload).toEqual({
      chat_id: DEFAULT_CHAT_ID,
      rich_message: { html: "<h2>Done</h2><p>a &lt; b &amp; c</p>" },
      reply_markup: { inline_keyboard: [[{ text: "Undo", callback_data: "u1", style: "danger" }]] },
      reply_parameters: { message_id: first.messageId, allow_sending_without_reply: true },
      disable_notification: true,
    });
    const m = tg.messages().find((x) => x.messageId === sent.messageId)!;
    expect(m.text).toBe("Done\na < b & c");
    expect(m.replyToMessageId).toBe(first.messageId);
  });

  it("a server without rich messages: RichMessagesMissing, first once, and never asked again", async () => {
    tg.setRichMessages("refused");
    try {
      const api = createTelegramApi(tg.token, tg.apiRoot);
      const before = tg.calls.filter((c) => c.method === "sendRichMessage").length;
      const errors: unknown[] = [];
      for (let i = 0; i < 3; i++) await api.sendRichMessage!(DEFAULT_CHAT_ID, rich`<p>x</p>`).catch((error) => errors.push(error));
      expect(errors.map((error) => error instanceof RichMessagesMissing && error.first)).toEqual([true, false, false]);
      expect(tg.calls.filter((c) => c.method === "sendRichMessage").length - before).toBe(1);
    } finally {
      tg.setRichMessages("supported");
    }
  });

  it("HERMES_RICH=off: no rich method", () => {
    expect(createTelegramApi(tg.token, tg.apiRoot, { rich: false }).sendRichMessage).toBeUndefined();
    expect(createTelegramApi(tg.token, tg.apiRoot, { rich: true }).sendRichMessage).toBeTypeOf("function");
  });

  it("the scrubber takes secrets out of rich messages too, and the machine label comes first", async () => {
    const secret = "s3cr3t-<&>-value";
    const api = labelMessages(scrubbedTelegram(createTelegramApi(tg.token, tg.apiRoot), [secret]), "build-box");
    const sent = await api.sendRichMessage!(DEFAULT_CHAT_ID, rich`<p>key: ${escapeRich(secret)}</p>`);
    const m = tg.messages().find((x) => x.messageId === sent.messageId)!;
    expect(m.text).toBe("🖥 build-box\nkey: [secret removed]");
    // Without the method underneath, the wrappers add none.
    expect(scrubbedTelegram(createTelegramApi(tg.token, tg.apiRoot, { rich: false }), [secret]).sendRichMessage).toBeUndefined();
    expect(labelMessages(createTelegramApi(tg.token, tg.apiRoot, { rich: false }), "x").sendRichMessage).toBeUndefined();
  });

  it("sendRichDraft: sendRichMessageDraft with the rich HTML (scrubbed, labelled); the same latch as sendRichMessage; off: absent", async () => {
    const secret = "dr4ft-secret-value";
    const api = labelMessages(scrubbedTelegram(createTelegramApi(tg.token, tg.apiRoot), [secret]), "build-box");
    await api.sendRichDraft!(DEFAULT_CHAT_ID, 7, rich`<p>key: ${escapeRich(secret)}</p>`);
    const call = tg.calls.filter((c) => c.method === "sendRichMessageDraft").at(-1)!;
    expect(call.payload).toEqual({ chat_id: DEFAULT_CHAT_ID, draft_id: 7, rich_message: { html: "<p>🖥 <b>build-box</b></p><p>key: [secret removed]</p>" } });
    tg.setRichMessages("refused");
    try {
      const bare = createTelegramApi(tg.token, tg.apiRoot);
      const errors: unknown[] = [];
      await bare.sendRichDraft!(DEFAULT_CHAT_ID, 8, rich`<p>x</p>`).catch((error) => errors.push(error));
      await bare.sendRichMessage!(DEFAULT_CHAT_ID, rich`<p>x</p>`).catch((error) => errors.push(error));
      expect(errors.map((error) => error instanceof RichMessagesMissing && error.first)).toEqual([true, false]);
    } finally {
      tg.setRichMessages("supported");
    }
    expect(createTelegramApi(tg.token, tg.apiRoot, { rich: false }).sendRichDraft).toBeUndefined();
  });
});
