// The fake Telegram holds Hermes to what Telegram holds a bot to, in every test: an edit after
// which the message looks exactly as before is refused ("message is not modified") whatever HTML
// spelled it, and fails the test that made it unless claimed; every request's Content-Encoding is
// recorded, and a compressed body fails the test too (tests/support/strict-telegram.setup.ts).
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callBotApi } from "../../lib/telegram/wire/bot-api-call.ts";
import { DEFAULT_CHAT_ID, startFakeTelegram, type FakeTelegram } from "../support/fake-telegram.ts";
import { MemoryTelegram } from "../support/memory-telegram.ts";
import { claimViolations, takeUnclaimedViolations } from "../support/telegram/strict-checks.ts";

let tg: FakeTelegram;
beforeAll(async () => {
  tg = await startFakeTelegram();
});
afterAll(() => tg.close());

const chat_id = DEFAULT_CHAT_ID;
const NOT_MODIFIED = /^Bad Request: message is not modified: specified new message content and reply markup are exactly the same/;

async function call(method: string, body: unknown, headers: Record<string, string> = {}, raw?: Buffer): Promise<{ status: number; body: any }> {
  const res = await fetch(`${tg.apiRoot}/bot${tg.token}/${method}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: raw ? new Uint8Array(raw) : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

const keyboard = (data: string) => ({ inline_keyboard: [[{ text: "A", callback_data: data }]] });

async function send(text: string, extra: Record<string, unknown> = {}): Promise<number> {
  const sent = await call("sendMessage", { chat_id, text, parse_mode: "HTML", ...extra });
  expect(sent.status).toBe(200);
  return sent.body.result.message_id;
}

describe("the fake refuses an edit that changes nothing, as Telegram does", () => {
  it("editMessageText: the same visible text and entities with the same keyboard, however the HTML spells them", async () => {
    const message_id = await send("<b>Q</b> fish &amp; chips", { reply_markup: keyboard("a") });
    const markup = keyboard("a");
    for (const text of ["<b>Q</b> fish &amp; chips", "<strong>Q</strong> fish &#38; chips", "<b>Q</b> fish &amp; chips\n"]) {
      const same = await call("editMessageText", { chat_id, message_id, text, parse_mode: "HTML", reply_markup: markup });
      expect(same.body.description, text).toMatch(NOT_MODIFIED);
    }
    // Key order inside a button is not a change either.
    const reordered = { inline_keyboard: [[{ callback_data: "a", text: "A" }]] };
    expect(
      (await call("editMessageText", { chat_id, message_id, text: "<b>Q</b> fish &amp; chips", parse_mode: "HTML", reply_markup: reordered })).status,
    ).toBe(400);
    expect(tg.takeRefusedEdits()).toHaveLength(4);

    // Another entity, another text or another keyboard is a change.
    expect((await call("editMessageText", { chat_id, message_id, text: "<i>Q</i> fish &amp; chips", parse_mode: "HTML", reply_markup: markup })).status).toBe(
      200,
    );
    expect(
      (await call("editMessageText", { chat_id, message_id, text: "<i>Q</i> fish &amp; chips", parse_mode: "HTML", reply_markup: keyboard("b") })).status,
    ).toBe(200);
    // Without reply_markup the keyboard goes: a change.
    expect((await call("editMessageText", { chat_id, message_id, text: "<i>Q</i> fish &amp; chips", parse_mode: "HTML" })).status).toBe(200);
    expect(tg.messages().find((m) => m.messageId === message_id)!.replyMarkup).toBeUndefined();
  });

  it("editMessageReplyMarkup: the same keyboard, or no keyboard on a message that has none", async () => {
    const message_id = await send("pick", { reply_markup: keyboard("a") });
    expect((await call("editMessageReplyMarkup", { chat_id, message_id, reply_markup: keyboard("a") })).body.description).toMatch(NOT_MODIFIED);
    expect((await call("editMessageReplyMarkup", { chat_id, message_id, reply_markup: { inline_keyboard: [] } })).status).toBe(200);
    expect((await call("editMessageReplyMarkup", { chat_id, message_id, reply_markup: { inline_keyboard: [] } })).body.description).toMatch(NOT_MODIFIED);
    expect((await call("editMessageReplyMarkup", { chat_id, message_id })).body.description).toMatch(NOT_MODIFIED);
    expect(tg.takeRefusedEdits().map((c) => c.method)).toEqual(["editMessageReplyMarkup", "editMessageReplyMarkup", "editMessageReplyMarkup"]);
  });

  it("editMessageCaption: the same caption; a text edit on a file, or a caption edit on a text, is refused as Telegram does", async () => {
    const sent = await call("sendDocument", { chat_id, document: "file-id-1", caption: "<code>a.diff</code>", parse_mode: "HTML" });
    const message_id = sent.body.result.message_id;
    expect((await call("editMessageCaption", { chat_id, message_id, caption: "<code>a.diff</code>", parse_mode: "HTML" })).body.description).toMatch(
      NOT_MODIFIED,
    );
    expect(tg.takeRefusedEdits()).toHaveLength(1);
    expect((await call("editMessageCaption", { chat_id, message_id, caption: "<code>b.diff</code>", parse_mode: "HTML" })).status).toBe(200);
    expect((await call("editMessageText", { chat_id, message_id, text: "x" })).body.description).toBe("Bad Request: there is no text in the message to edit");
    const text = await send("plain");
    expect((await call("editMessageCaption", { chat_id, message_id: text, caption: "x" })).body.description).toBe(
      "Bad Request: there is no caption in the message to edit",
    );
  });

  it("a refused edit nobody claims is reported to the per-test check, which fails the test", async () => {
    const message_id = await send("once", { reply_markup: keyboard("a") });
    await call("editMessageReplyMarkup", { chat_id, message_id, reply_markup: keyboard("a") });
    const reported = takeUnclaimedViolations();
    expect(reported).toHaveLength(1);
    expect(reported[0]).toMatchObject({ kind: "not modified" });
    expect(reported[0]!.detail).toContain("editMessageReplyMarkup");
  });

  it("the in-memory TelegramApi of the bridge's unit tests refuses the same edits", async () => {
    const memory = new MemoryTelegram();
    const { messageId } = await memory.sendMessage(1, "<b>x</b>", { keyboard: [[{ text: "A", callback_data: "a" }]] });
    await memory.editMessage(1, messageId, "<strong>x</strong>", [[{ text: "A", callback_data: "a" }]]);
    await memory.removeKeyboard(1, messageId);
    await memory.removeKeyboard(1, messageId);
    await memory.editMessage(1, messageId, "<b>x</b>\n", []);
    expect(memory.messages[0]!.edits).toBe(0);
    expect(memory.takeRefusedEdits().map((r) => r.method)).toEqual(["editMessageText", "editMessageReplyMarkup", "editMessageText"]);
    expect(takeUnclaimedViolations()).toEqual([]);
  });
});

describe("the fake records each request's Content-Encoding", () => {
  it("a gzipped body is read, recorded and reported; a plain one is not", async () => {
    const before = tg.compressedCalls.length;
    const zipped = await call("getMe", undefined, { "content-encoding": "gzip" }, gzipSync(JSON.stringify({})));
    expect(zipped.status).toBe(200);
    expect(tg.calls.at(-1)!.contentEncoding).toBe("gzip");
    expect(tg.compressedCalls.length).toBe(before + 1);
    expect(claimViolations(tg, "compressed body").map((v) => v.detail)).toEqual(["getMe sent with Content-Encoding: gzip"]);

    await call("getMe", {});
    expect(tg.calls.at(-1)!.contentEncoding).toBeUndefined();
    expect(tg.compressedCalls.length).toBe(before + 1);
  });

  it("Hermes' Bot API call sends plain JSON: no Content-Encoding, and no compress option for the runtime's fetch to act on", async () => {
    const seen: RequestInit[] = [];
    const spy: typeof fetch = (input, init) => {
      seen.push(init ?? {});
      return fetch(input, init);
    };
    const answer = await callBotApi(tg.token, tg.apiRoot, "getMe", {}, undefined, spy);
    expect(answer).toMatchObject({ ok: true, result: { is_bot: true } });
    expect(tg.calls.at(-1)!.contentEncoding).toBeUndefined();
    expect(Object.keys(seen[0]!).sort()).toEqual(["body", "headers", "method"]);
    expect(seen[0]!.headers).toEqual({ "content-type": "application/json" });
  });
});
