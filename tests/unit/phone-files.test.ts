// Photos and files from the phone, through the bridge with an in-memory Telegram and a fake
// OpenCode: who is heard, what is fetched (never a stranger's file, never one over the limit),
// what reaches the session, and what the phone is told when it doesn't.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import pino from "pino";
import { formatSize } from "../../lib/bridge/input/phone-download.ts";
import { PhoneFiles } from "../../lib/bridge/input/phone-files.ts";
import type { SessionTopics } from "../../lib/bridge/core/topics.ts";
import { CATALOGS } from "../../lib/i18n/catalog.ts";
import { OpencodeApi } from "../../lib/opencode/api.ts";
import { Registry } from "../../lib/registry/registry.ts";
import { parseUpdate } from "../../lib/telegram/wire/updates.ts";
import { FakeOpencode } from "../support/bridge-rig.ts";
import { MemoryTelegram } from "../support/memory-telegram.ts";
import { listenLoopback } from "../support/loopback-server.ts";
import { BOT_DOWNLOAD_LIMIT_BYTES, createTelegramApi, FileTooBigError, TelegramApiError, type TelegramApi } from "../../lib/telegram/wire/api.ts";
import { CHAT, DIRECTORY, OWNER, setup } from "../support/bridge-rig.ts";
import { runToQuiet } from "../support/run-to-quiet.ts";
import { DEFAULT_CHAT_ID, startFakeTelegram, type FakeTelegram } from "../support/fake-telegram.ts";

const JPEG = Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 74, 70, 73, 70]);
let updateId = 0;

/** A bridge whose registry knows message 50 as a message of session ses_1. */
function rig(allowedUsers: number[] = []) {
  const r = setup({ allowedUsers });
  r.bridge.registry.noteMessage({ chatId: CHAT, messageId: 50 }, { sessionID: "ses_1", directory: DIRECTORY });
  const send = (message: Record<string, unknown>, from = OWNER) =>
    r.bridge.handleUpdate({
      update_id: ++updateId,
      message: { message_id: 900 + updateId, from: { id: from, first_name: "U" }, chat: { id: CHAT, type: "private" }, ...message },
    });
  const prompts = () => r.opencode.posts.filter((post) => post.url === "/session/{sessionID}/prompt_async");
  return { ...r, send, prompts };
}

describe("PhoneFiles through the bridge", () => {
  it("a photo replying to a session's message becomes its prompt: caption, then the image as a data URL", async () => {
    const r = rig();
    r.telegram.files.set("ph", { bytes: JPEG });
    await r.send({
      photo: [
        { file_id: "thumb", file_size: 1 },
        { file_id: "ph", file_size: JPEG.length },
      ],
      caption: "fix this",
      reply_to_message: { message_id: 50 },
    });
    await vi.waitFor(() => expect(r.prompts()).toHaveLength(1));
    expect(r.prompts()[0]).toEqual({
      url: "/session/{sessionID}/prompt_async",
      path: { sessionID: "ses_1" },
      body: {
        parts: [
          { type: "text", text: "fix this" },
          { type: "file", mime: "image/jpeg", filename: "photo.jpg", url: `data:image/jpeg;base64,${Buffer.from(JPEG).toString("base64")}` },
        ],
      },
    });
    await vi.waitFor(() => expect(r.telegram.reactions).toEqual([{ chatId: CHAT, messageId: 900 + updateId, emoji: "👍" }]));
  });

  it("a file over 20 MB by Telegram's word is refused without asking Telegram for it", async () => {
    const r = rig();
    await r.send({ document: { file_id: "big", file_size: BOT_DOWNLOAD_LIMIT_BYTES + 1, file_name: "dump.log" }, reply_to_message: { message_id: 50 } });
    await vi.waitFor(() => expect(r.telegram.messages.at(-1)?.text).toContain("the file is 20 MB, and Telegram lets a bot download at most 20 MB"));
    expect(r.telegram.fileCalls).toEqual([]);
    expect(r.prompts()).toEqual([]);
  });

  it("a file that getFile or the download finds too big is refused too", async () => {
    const r = rig();
    r.telegram.files.set("liar", { bytes: JPEG, size: BOT_DOWNLOAD_LIMIT_BYTES + 10 });
    await r.send({ document: { file_id: "liar", file_size: 10 }, reply_to_message: { message_id: 50 } });
    await vi.waitFor(() => expect(r.telegram.messages.at(-1)?.text).toContain("the file is &gt; 20 MB"));
    expect(r.telegram.fileCalls).toEqual([{ method: "getFile", id: "liar" }]);
    expect(r.prompts()).toEqual([]);
  });

  it("a stranger's file is never fetched and gets no answer, even as a reply to a session", async () => {
    const r = rig([OWNER]);
    r.telegram.files.set("ph", { bytes: JPEG });
    await runToQuiet(() => r.send({ photo: [{ file_id: "ph" }], caption: "do it", reply_to_message: { message_id: 50 } }, 666));
    expect(r.telegram.fileCalls).toEqual([]);
    expect(r.telegram.messages).toEqual([]);
    expect(r.prompts()).toEqual([]);
  });

  it("an album becomes one prompt: its caption, then every file; a refused item is said on its own", async () => {
    const r = rig();
    const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1]);
    r.telegram.files.set("a1", { bytes: JPEG });
    r.telegram.files.set("a2", { bytes: PNG });
    r.telegram.files.set("a3", { bytes: Uint8Array.from([0, 1, 2, 3]) });
    const album = { media_group_id: "1390", reply_to_message: { message_id: 50 } };
    await runToQuiet(async () => {
      await r.send({ ...album, photo: [{ file_id: "a1" }], caption: "compare these" });
      await r.send({ ...album, document: { file_id: "a3", file_name: "blob.bin", mime_type: "application/octet-stream" } });
      await r.send({ ...album, document: { file_id: "a2", file_name: "b.png", mime_type: "image/png" } });
    });
    expect(r.prompts()).toHaveLength(1);
    const data = (bytes: Uint8Array, mime: string) => `data:${mime};base64,${Buffer.from(bytes).toString("base64")}`;
    expect((r.prompts()[0]!.body as { parts: unknown[] }).parts).toEqual([
      { type: "text", text: "compare these" },
      { type: "file", mime: "image/jpeg", filename: "photo.jpg", url: data(JPEG, "image/jpeg") },
      { type: "file", mime: "image/png", filename: "b.png", url: data(PNG, "image/png") },
    ]);
    expect(r.telegram.messages.filter((m) => m.text.includes("blob.bin"))).toHaveLength(1);
  });

  it("a file for no session says how to send one, and is not fetched", async () => {
    const r = rig();
    r.telegram.files.set("ph", { bytes: JPEG });
    await r.send({ photo: [{ file_id: "ph" }] });
    await vi.waitFor(() => expect(r.telegram.messages.at(-1)?.text).toContain("reply with the photo or file to a Hermes message"));
    expect(r.telegram.fileCalls).toEqual([]);
  });

  it("a video is refused by name; a binary document by its claimed type and name, escaped", async () => {
    const r = rig();
    await r.send({ video: { file_id: "v", file_size: 10 }, reply_to_message: { message_id: 50 } });
    await vi.waitFor(() => expect(r.telegram.messages.at(-1)?.text).toContain("not video."));
    r.telegram.files.set("z", { bytes: Uint8Array.from([0x50, 0x4b, 3, 4, 0]) });
    await r.send({ document: { file_id: "z", mime_type: "application/zip", file_name: "<b>x.zip" }, reply_to_message: { message_id: 50 } });
    await vi.waitFor(() => expect(r.telegram.messages.at(-1)?.text).toContain("not <code>application/zip &lt;b&gt;x.zip</code>."));
    expect(r.prompts()).toEqual([]);
  });

  it("when OpenCode refuses the prompt, the phone is told why", async () => {
    const r = rig();
    r.opencode.replyStatus = 400;
    r.telegram.files.set("t", { bytes: Buffer.from("hello") });
    await r.send({ document: { file_id: "t", file_name: "a.txt" }, reply_to_message: { message_id: 50 } });
    await vi.waitFor(() => expect(r.telegram.messages.at(-1)?.text).toContain("Not sent to the agent (OpenCode answered 400: boom)."));
  });

  it("a document posted in a session's forum topic (not a reply) goes to that session", async () => {
    const telegram = new MemoryTelegram();
    const opencode = new FakeOpencode();
    const topics = {
      ownerOf: (threadId: number) => (threadId === 77 ? { sessionID: "ses_topic", directory: DIRECTORY } : undefined),
    } as unknown as SessionTopics;
    const acknowledged: string[] = [];
    const files = new PhoneFiles({
      telegram,
      registry: new Registry(),
      topics,
      log: pino({ level: "silent" }),
      t: CATALOGS.zh,
      links: { linkFor: () => ({ directory: DIRECTORY, opencode: new OpencodeApi(opencode, { retries: 0, minTimeout: 1, maxTimeout: 1 }) }) },
      activity: { isBusy: () => false },
      talk: { acknowledge: async (owner) => void acknowledged.push(owner.sessionID) },
      chat: { reply: async () => undefined },
      voice: { heard: async () => undefined },
      quietMs: 10,
    });
    telegram.files.set("doc", { bytes: Buffer.from("notes") });
    const update = (threadId: number) =>
      parseUpdate({
        message: {
          message_id: 5,
          from: { id: OWNER, first_name: "U" },
          chat: { id: -100, type: "supergroup" },
          is_topic_message: true,
          message_thread_id: threadId,
          caption: "看看",
          document: { file_id: "doc", file_name: "n.txt" },
        },
      });
    expect(files.claim(update(78) as never)).toBeUndefined(); // another topic: not this process' session
    const take = await runToQuiet(() => files.claim(update(77) as never));
    expect(telegram.fileCalls).toEqual([]); // deciding changes nothing
    await take!();
    await vi.waitFor(() => expect(acknowledged).toEqual(["ses_topic"]));
    expect(opencode.posts[0]?.body).toEqual({
      parts: [
        { type: "text", text: "看看" },
        { type: "text", text: '从 Telegram 发送的文件 "n.txt"：\n\nnotes' },
      ],
    });
  });

  it("formats sizes in Telegram's binary units", () => {
    expect([formatSize(512), formatSize(1536), formatSize(20 * 1024 * 1024), formatSize(25.4 * 1024 * 1024)]).toEqual([
      "512 bytes",
      "1.5 KB",
      "20 MB",
      "25 MB",
    ]);
  });
});

describe("TelegramApi.downloadFile against the fake Telegram", () => {
  let fake: FakeTelegram;
  let api: TelegramApi;
  beforeAll(async () => {
    fake = await startFakeTelegram();
    api = createTelegramApi(fake.token, fake.apiRoot);
  });
  afterAll(async () => {
    await fake.close();
  });

  it("getFile then download returns the bytes; more than the cap is refused", async () => {
    const bytes = Buffer.alloc(300_000, 7);
    const { fileId } = fake.sendFile(DEFAULT_CHAT_ID, { kind: "document", bytes, fileName: "a.bin" });
    const found = await api.getFile(fileId);
    expect(found.size).toBe(bytes.length);
    expect(Buffer.from(await api.downloadFile(found.path!, BOT_DOWNLOAD_LIMIT_BYTES))).toEqual(bytes);
    await expect(api.downloadFile(found.path!, 1000)).rejects.toBeInstanceOf(FileTooBigError);
  });

  it("a path that climbs out is never fetched, and errors never carry the token", async () => {
    const before = fake.calls.length;
    await expect(api.downloadFile("../../bot1/getMe", 100)).rejects.toBeInstanceOf(TelegramApiError);
    expect(fake.calls.length).toBe(before);
    const error = await api.downloadFile("documents/never-issued.txt", 100).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TelegramApiError);
    expect(String((error as Error).message)).not.toContain(fake.token);
    expect((error as TelegramApiError).code).toBe(404);
  });

  it("a download without a length is cut off once it passes the cap", async () => {
    const server = await listenLoopback((_req, res) => {
      res.writeHead(200, { "content-type": "application/octet-stream" }); // chunked: no content-length
      for (let i = 0; i < 5; i++) res.write(Buffer.alloc(1000, i));
      res.end();
    });
    try {
      const chunked = createTelegramApi("1:x", server.origin);
      await expect(chunked.downloadFile("documents/a.bin", 2500)).rejects.toBeInstanceOf(FileTooBigError);
      expect((await chunked.downloadFile("documents/a.bin", 5000)).length).toBe(5000);
    } finally {
      await server.close();
    }
  });

  it("getFile refuses a file over 20 MB, as Telegram does", async () => {
    const { fileId } = fake.sendFile(DEFAULT_CHAT_ID, { kind: "document", bytes: Buffer.from("x"), reportedSize: BOT_DOWNLOAD_LIMIT_BYTES + 1 });
    await expect(api.getFile(fileId)).rejects.toThrow(/file is too big/);
  });
});
