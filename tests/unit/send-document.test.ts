// The fetch + FormData upload behind TelegramApi.sendDocument, against the fake Bot API on loopback;
// chunked bytes as a streamed body from a private copy (lib/telegram/wire/disk-upload.ts).
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTelegramApi, TelegramApiError } from "../../lib/telegram/wire/api.ts";
import { DEFAULT_CHAT_ID, startFakeTelegram, type FakeTelegram } from "../support/fake-telegram.ts";
import { trustedHtml } from "../../lib/text/html.ts";
import { type ChunkedBytes, NotSentError } from "../../lib/telegram/wire/upload-source.ts";
import fs from "node:fs";
import os from "node:os";

describe("sendDocument", () => {
  let telegram: FakeTelegram;
  beforeEach(async () => {
    telegram = await startFakeTelegram();
  });
  afterEach(async () => {
    await telegram.close();
  });

  it("uploads the text as a named file with its caption, in reply and in a topic", async () => {
    const api = createTelegramApi(telegram.token, telegram.apiRoot);
    const { messageId } = await api.sendMessage(DEFAULT_CHAT_ID, trustedHtml("prompt"));
    const content = `--- a\n+++ b\n${"+<b>x & y</b>\n".repeat(500)}`;
    const sent = await api.sendDocument(DEFAULT_CHAT_ID, "big-change.html.diff", content, {
      caption: trustedHtml("Full diff of <code>big-change.html</code>"),
      replyTo: messageId,
    });
    const document = telegram.messages().find((m) => m.messageId === sent.messageId)!;
    expect(document.document).toMatchObject({ filename: "big-change.html.diff", bytes: Buffer.byteLength(content) });
    expect(document.text).toContain("big-change.html");
    const call = telegram.calls.find((c) => c.method === "sendDocument")!;
    expect(call.payload).toMatchObject({
      chat_id: DEFAULT_CHAT_ID,
      parse_mode: "HTML",
      reply_parameters: { message_id: messageId, allow_sending_without_reply: true },
    });
  });

  it("a refusal is a TelegramApiError with Telegram's code and retry_after", async () => {
    const api = createTelegramApi(telegram.token, telegram.apiRoot);
    await telegram.setFault({ kind: "429", retryAfter: 7, methods: ["sendDocument"], times: 1 });
    const error = await api.sendDocument(DEFAULT_CHAT_ID, "a.diff", "x").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TelegramApiError);
    expect(error).toMatchObject({ code: 429, retryAfterSeconds: 7 });
  });

  it("no answer at all is code 0, and the message never carries the token", async () => {
    const api = createTelegramApi(telegram.token, "http://127.0.0.1:9");
    const error = (await api.sendDocument(DEFAULT_CHAT_ID, "a.diff", "x").catch((e: unknown) => e)) as TelegramApiError;
    expect(error).toBeInstanceOf(TelegramApiError);
    expect(error.code).toBe(0);
    expect(error.message).not.toContain(telegram.token);
  });
});

describe("sendFile (the agent's files)", () => {
  let telegram: FakeTelegram;
  beforeEach(async () => {
    telegram = await startFakeTelegram();
  });
  afterEach(async () => {
    await telegram.close();
  });

  it("a photo goes as sendPhoto with its exact bytes, its type and caption; any other file as sendDocument, bytes intact", async () => {
    const api = createTelegramApi(telegram.token, telegram.apiRoot);
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from(Array.from({ length: 300 }, (_, i) => i % 256))]);
    const photo = await api.sendFile(
      DEFAULT_CHAT_ID,
      { as: "photo", filename: "shot.png", bytes: png, mime: "image/png" },
      { caption: trustedHtml("<b>the page</b>") },
    );
    const sentPhoto = telegram.messages().find((m) => m.messageId === photo.messageId)!;
    expect(sentPhoto.photo?.data.equals(png)).toBe(true);
    expect(sentPhoto.photo).toMatchObject({ filename: "shot.png", type: "image/png", caption: "<b>the page</b>" });
    const binary = Buffer.from([0, 255, 0xc3, 0x28, 10, 13, 0]);
    const doc = await api.sendFile(DEFAULT_CHAT_ID, { as: "document", filename: "app.apk", bytes: binary, mime: "application/octet-stream" });
    const sentDoc = telegram.messages().find((m) => m.messageId === doc.messageId)!;
    expect(sentDoc.document?.data?.equals(binary)).toBe(true);
    expect(telegram.calls.filter((c) => c.method === "sendPhoto" || c.method === "sendDocument").map((c) => c.method)).toEqual(["sendPhoto", "sendDocument"]);
  });
});

describe("sendFile with chunked bytes (a file of the project, read from disk as it is uploaded)", () => {
  let telegram: FakeTelegram;
  beforeEach(async () => {
    telegram = await startFakeTelegram();
  });
  afterEach(async () => {
    await telegram.close();
  });

  const chunked = (parts: Uint8Array[]): ChunkedBytes => ({
    size: parts.reduce((sum, part) => sum + part.length, 0),
    async *chunks() {
      yield* parts;
    },
  });
  const uploadCopies = () => fs.readdirSync(os.tmpdir()).filter((name) => name.startsWith("hermes-upload-"));

  it("Telegram receives exactly the chunks' bytes, with the caption, in reply; the private copy is gone after", async () => {
    const api = createTelegramApi(telegram.token, telegram.apiRoot);
    const { messageId } = await api.sendMessage(DEFAULT_CHAT_ID, trustedHtml("prompt"));
    const before = uploadCopies();
    const parts = [Buffer.from([0, 255, 13, 10]), Buffer.alloc(3 * 1024 * 1024 + 7, 0x2d), Buffer.from("\r\n--end")];
    const sent = await api.sendFile(
      DEFAULT_CHAT_ID,
      { as: "document", filename: 'we"ird\nname.bin', bytes: chunked(parts), mime: "application/octet-stream" },
      { caption: trustedHtml("<b>the build</b>"), replyTo: messageId },
    );
    const message = telegram.messages().find((m) => m.messageId === sent.messageId)!;
    expect(message.document?.data?.equals(Buffer.concat(parts))).toBe(true);
    expect(message.document).toMatchObject({ filename: "we%22ird%0Aname.bin", caption: "<b>the build</b>" });
    expect(telegram.calls.find((c) => c.method === "sendDocument")!.payload).toMatchObject({
      chat_id: DEFAULT_CHAT_ID,
      parse_mode: "HTML",
      reply_parameters: { message_id: messageId, allow_sending_without_reply: true },
    });
    expect(uploadCopies()).toEqual(before);
  });

  it("bytes that cannot be read fail as not sent (the outbox does not try again), and leave no copy", async () => {
    const api = createTelegramApi(telegram.token, telegram.apiRoot);
    const before = uploadCopies();
    const broken: ChunkedBytes = {
      size: 10,
      // biome-ignore lint/correctness/useYield: it fails before its first chunk
      async *chunks() {
        throw new Error("EIO");
      },
    };
    const error = await api.sendFile(DEFAULT_CHAT_ID, { as: "document", filename: "a.bin", bytes: broken, mime: "application/octet-stream" }).catch((e) => e);
    expect(error).toBeInstanceOf(NotSentError);
    expect((error as NotSentError).cause).toMatchObject({ message: "EIO" });
    expect(telegram.calls.filter((c) => c.method === "sendDocument")).toHaveLength(0);
    expect(uploadCopies()).toEqual(before);
  });
});
