// Voice notes through the bridge, with an in-memory Telegram, a fake OpenCode and the fake
// OpenAI-compatible transcription server on loopback: who is heard (never a stranger, nothing
// fetched when transcription is off), what reaches the session or the awaited answer, what the
// phone is shown, and what it is told when nothing is sent.
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { Writable } from "node:stream";
import pino from "pino";
import { VoiceNotes } from "../../lib/bridge/input/voice-notes.ts";
import type { SessionTopics } from "../../lib/bridge/core/topics.ts";
import { CATALOGS } from "../../lib/i18n/catalog.ts";
import { Registry } from "../../lib/registry/registry.ts";
import { BOT_DOWNLOAD_LIMIT_BYTES } from "../../lib/telegram/wire/api.ts";
import { parseUpdate } from "../../lib/telegram/wire/updates.ts";
import { MemoryTelegram } from "../support/memory-telegram.ts";
import { CHAT, DIRECTORY, OWNER, permission, request, setup } from "../support/bridge-rig.ts";
import { startFakeTranscription, type FakeTranscription } from "../support/transcription-server.ts";

const OGG = Buffer.concat([Buffer.from("OggS\0\x02\0\0", "latin1"), Buffer.from([1, 2, 3, 0xff, 0x80, 0, 13, 10])]);
const MP3 = Buffer.concat([Buffer.from("ID3\x04\0\0\0\0\0\0", "latin1"), Buffer.from([0xff, 0xfb, 0x90, 0x64, 7, 7])]);
const STRANGER = 666;
let updateId = 0;

let service: FakeTranscription;
beforeAll(async () => {
  service = await startFakeTranscription();
});
afterAll(() => service.close());
beforeEach(() => service.hear("rename the function to parseUpdate"));

/** A bridge with transcription on (unless `off`), whose registry knows message 50 as a message of session ses_1. */
function rig(options: { off?: boolean; allowedUsers?: number[]; timeoutMs?: number; key?: string } = {}) {
  const r = setup({
    allowedUsers: options.allowedUsers ?? [],
    ...(options.off ? {} : { transcription: { url: service.url, key: options.key ?? service.key, model: "whisper-1", language: "en" } }),
    ...(options.timeoutMs !== undefined ? { transcribeTimeoutMs: options.timeoutMs } : {}),
  });
  r.bridge.registry.noteMessage({ chatId: CHAT, messageId: 50 }, { sessionID: "ses_1", directory: DIRECTORY });
  /** A voice note (file id `v<n>`, the bytes served by getFile) from `from`, replying to `replyTo`. */
  const voice = async (replyTo: number | undefined, extra: { from?: number; bytes?: Uint8Array; size?: number; media?: Record<string, unknown> } = {}) => {
    const id = ++updateId;
    const fileId = `v${id}`;
    r.telegram.files.set(fileId, { bytes: extra.bytes ?? OGG });
    const messageId = 900 + id;
    await r.bridge.handleUpdate({
      update_id: id,
      message: {
        message_id: messageId,
        from: { id: extra.from ?? OWNER, first_name: "U" },
        chat: { id: CHAT, type: "private" },
        ...(extra.media ?? {
          voice: { file_id: fileId, file_unique_id: `u${fileId}`, duration: 2, mime_type: "audio/ogg", file_size: extra.size ?? OGG.length },
        }),
        ...(replyTo !== undefined ? { reply_to_message: { message_id: replyTo } } : {}),
      },
    });
    return { messageId, fileId };
  };
  const prompts = () => r.opencode.posts.filter((post) => post.url === "/session/{sessionID}/prompt_async");
  const repliesTo = (messageId: number) => r.telegram.messages.filter((m) => m.replyTo === messageId);
  return { ...r, voice, prompts, repliesTo };
}

describe("voice notes through the bridge", () => {
  it("a voice note replying to a session's message: the service gets its bytes, the phone is shown the words, the session gets them as its prompt", async () => {
    const r = rig();
    const before = service.requests.length;
    const { messageId } = await r.voice(50);
    await vi.waitFor(() => expect(r.prompts()).toHaveLength(1));
    expect(r.prompts()[0]).toEqual({
      url: "/session/{sessionID}/prompt_async",
      path: { sessionID: "ses_1" },
      body: { parts: [{ type: "text", text: "rename the function to parseUpdate" }] },
    });
    const request = service.requests[before]!;
    expect(request.file?.data.equals(OGG)).toBe(true);
    expect(request.fields).toMatchObject({ model: "whisper-1", language: "en" });
    expect(request.authorization).toBe(`Bearer ${service.key}`);
    const shown = r.repliesTo(messageId).find((m) => m.text.includes("Heard"));
    expect(shown?.text).toBe("🎤 <i>Heard:</i> rename the function to parseUpdate");
    // Shown before it is sent, and a reply to what was shown reaches the session too.
    expect(r.bridge.registry.ownerOf({ chatId: CHAT, messageId: shown!.messageId })).toEqual({ sessionID: "ses_1", directory: DIRECTORY });
    await vi.waitFor(() => expect(r.telegram.reactions).toContainEqual({ chatId: CHAT, messageId, emoji: "👍" }));
    // The words come first, then the Running notice with Stop, both replying to the voice note.
    await vi.waitFor(() => expect(r.repliesTo(messageId)).toHaveLength(2));
    expect(r.repliesTo(messageId).map((m) => m.messageId)).toEqual([shown!.messageId, expect.any(Number)]);
    expect(
      r
        .repliesTo(messageId)[1]!
        .keyboard.flat()
        .map((b) => b.text),
    ).toContain("⏹ Stop");
    expect(service.requests.length - before).toBe(1);
  });

  it("the words are escaped on the phone and sent as they are", async () => {
    const r = rig();
    service.hear("use <b> & </b> tags");
    const { messageId } = await r.voice(50);
    await vi.waitFor(() => expect(r.prompts()).toHaveLength(1));
    expect(r.prompts()[0]!.body).toEqual({ parts: [{ type: "text", text: "use <b> & </b> tags" }] });
    expect(r.repliesTo(messageId)[0]?.text).toBe("🎤 <i>Heard:</i> use &lt;b&gt; &amp; &lt;/b&gt; tags");
  });

  it("not configured: the phone names HERMES_TRANSCRIBE_URL and the README section; nothing is downloaded or sent", async () => {
    const r = rig({ off: true });
    const before = service.requests.length;
    const { messageId } = await r.voice(50);
    await vi.waitFor(() => expect(r.repliesTo(messageId)).toHaveLength(1));
    expect(r.repliesTo(messageId)[0]!.text).toContain("<code>HERMES_TRANSCRIBE_URL</code>");
    expect(r.repliesTo(messageId)[0]!.text).toContain("Voice notes");
    expect(r.telegram.fileCalls).toEqual([]);
    expect(service.requests.length).toBe(before);
    expect(r.prompts()).toEqual([]);
  });

  it("a stranger's voice note is never downloaded nor transcribed, and gets no answer", async () => {
    const r = rig({ allowedUsers: [OWNER] });
    const before = service.requests.length;
    const { messageId } = await r.voice(50, { from: STRANGER });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(r.telegram.fileCalls).toEqual([]);
    expect(service.requests.length).toBe(before);
    expect(r.repliesTo(messageId)).toEqual([]);
    expect(r.prompts()).toEqual([]);
  });

  it("a failing service is said on the phone, nothing is sent, and the voice note never becomes a prompt later", async () => {
    const r = rig();
    service.fail({ status: 500 });
    const before = service.requests.length;
    const { messageId } = await r.voice(50);
    await vi.waitFor(() => expect(r.repliesTo(messageId)).toHaveLength(1));
    expect(r.repliesTo(messageId)[0]!.text).toBe("⚠️ Not sent to the agent: the transcription failed (HTTP 500: the service failed (500)).");
    // The next voice note goes through: one prompt, its own.
    service.hear("second try");
    await r.voice(50);
    await vi.waitFor(() => expect(r.prompts()).toHaveLength(1));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(r.prompts().map((p) => p.body)).toEqual([{ parts: [{ type: "text", text: "second try" }] }]);
    expect(service.requests.length - before).toBe(2);
  });

  it("a refused key and a service that does not answer in time are each said", async () => {
    const refused = rig({ key: "sk-not-the-right-one" });
    const first = await refused.voice(50);
    await vi.waitFor(() => expect(refused.repliesTo(first.messageId)[0]?.text).toContain("refused the key (check <code>HERMES_TRANSCRIBE_KEY</code>)"));
    const slow = rig({ timeoutMs: 200 });
    service.fail("hang");
    const second = await slow.voice(50);
    await vi.waitFor(() => expect(slow.repliesTo(second.messageId)[0]?.text).toContain("did not answer within"));
    expect([...refused.prompts(), ...slow.prompts()]).toEqual([]);
  });

  it("an empty transcript is said, not sent", async () => {
    const r = rig();
    service.hear("   ");
    const { messageId } = await r.voice(50);
    await vi.waitFor(() => expect(r.repliesTo(messageId)[0]?.text).toBe("⚠️ Not sent to the agent: nothing could be heard in this voice note."));
    expect(r.prompts()).toEqual([]);
  });

  it("a voice note over 20 MB by Telegram's word is refused without asking Telegram for it", async () => {
    const r = rig();
    const before = service.requests.length;
    const { messageId } = await r.voice(50, { size: BOT_DOWNLOAD_LIMIT_BYTES + 1 });
    await vi.waitFor(() => expect(r.repliesTo(messageId)[0]?.text).toContain("Telegram lets a bot download at most 20 MB"));
    expect(r.telegram.fileCalls).toEqual([]);
    expect(service.requests.length).toBe(before);
  });

  it("audio whose bytes are not a format Hermes transcribes is refused after the download, never sent to the service", async () => {
    const r = rig();
    const before = service.requests.length;
    const { messageId } = await r.voice(50, { bytes: Buffer.from("fLaC\0\0\0\x22", "latin1") });
    await vi.waitFor(() =>
      expect(r.repliesTo(messageId)[0]?.text).toContain("Hermes transcribes OGG/Opus, MP3, M4A and WAV audio, not <code>audio/ogg</code>"),
    );
    expect(service.requests.length).toBe(before);
  });

  it("an audio file, and a document whose bytes are MP3 whatever it claims, are transcribed too", async () => {
    const r = rig();
    const before = service.requests.length;
    r.telegram.files.set("aud", { bytes: MP3 });
    await r.voice(50, { media: { audio: { file_id: "aud", mime_type: "audio/mpeg", file_name: "memo.mp3", duration: 3 } } });
    r.telegram.files.set("doc", { bytes: MP3 });
    await r.voice(50, { media: { document: { file_id: "doc", mime_type: "application/octet-stream", file_name: "x.bin" } } });
    await vi.waitFor(() => expect(r.prompts()).toHaveLength(2));
    expect(service.requests.slice(before).map((q) => [q.file?.filename, q.file?.data.equals(MP3)])).toEqual([
      ["voice.mp3", true],
      ["voice.mp3", true],
    ]);
  });

  it("a voice note that replies to nothing is not transcribed, and the phone says how to send it", async () => {
    const r = rig();
    const before = service.requests.length;
    const { messageId } = await r.voice(undefined);
    await vi.waitFor(() => expect(r.repliesTo(messageId)[0]?.text).toContain("reply with the voice note to a Hermes message"));
    expect(r.telegram.fileCalls).toEqual([]);
    expect(service.requests.length).toBe(before);
  });

  it("a voice note replying to 'Type an answer' gives that answer, shown before it is sent", async () => {
    const r = rig();
    service.hear("teal, like the sea");
    const message = await r.ask(request());
    await r.tap(message, "Type an answer");
    const ask = await r.forceReply();
    const { messageId } = await r.voice(ask.messageId);
    await r.settled(message, "Answered from Telegram");
    expect(r.opencode.posts.at(-1)?.body).toEqual({ answers: [["teal, like the sea"]] });
    expect(r.repliesTo(messageId)[0]?.text).toBe("🎤 <i>Your answer, as heard:</i> teal, like the sea");
    expect(r.prompts()).toEqual([]);
  });

  it("a voice note replying to 'Reject with feedback' gives that feedback", async () => {
    const r = rig();
    service.hear("use the staging database instead");
    const message = await r.askPermission(permission());
    await r.tap(message, "Reject with feedback");
    const ask = await r.forceReply();
    await r.voice(ask.messageId);
    await vi.waitFor(() => expect(r.opencode.posts.at(-1)?.body).toEqual({ reply: "reject", message: "use the staging database instead" }));
  });

  it("the transcription key never reaches the log, even when the service quotes it", async () => {
    const lines: string[] = [];
    const key = "sk-quoted-back-987654321";
    const own = await startFakeTranscription({ key });
    try {
      own.fail({ status: 500, body: { error: { message: `quota exceeded for ${key}` } } });
      const r = setup({ transcription: { url: own.url, key, model: "whisper-1" }, logger: pino({ level: "debug" }, sink(lines)) });
      r.bridge.registry.noteMessage({ chatId: CHAT, messageId: 50 }, { sessionID: "ses_1", directory: DIRECTORY });
      r.telegram.files.set("k", { bytes: OGG });
      await r.bridge.handleUpdate({
        update_id: ++updateId,
        message: { message_id: 7000, from: { id: OWNER }, chat: { id: CHAT, type: "private" }, voice: { file_id: "k" }, reply_to_message: { message_id: 50 } },
      });
      await vi.waitFor(() => expect(r.telegram.messages.some((m) => m.text.includes("quota exceeded for [key]"))).toBe(true));
      expect(lines.join("")).toContain("could not transcribe a voice note");
      expect(lines.join("")).not.toContain(key);
      expect(r.telegram.messages.map((m) => m.text).join("")).not.toContain(key);
    } finally {
      await own.close();
    }
  });
});

function sink(lines: string[]): Writable {
  return new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
}

describe("voice notes back to back", () => {
  it("two voice notes sent one after the other reach the session in that order, even when the first takes longer to transcribe", async () => {
    const r = rig();
    service.hear("FIRST slow one", "SECOND quick one");
    service.fail({ delayMs: 400 });
    await r.voice(50);
    await r.voice(50);
    await vi.waitFor(() => expect(r.prompts()).toHaveLength(2), { timeout: 5_000 });
    expect(r.prompts().map((p) => (p.body as any).parts[0].text)).toEqual(["FIRST slow one", "SECOND quick one"]);
    const shown = r.telegram.messages.filter((m) => m.text.includes("Heard")).map((m) => m.text);
    expect(shown).toEqual(["🎤 <i>Heard:</i> FIRST slow one", "🎤 <i>Heard:</i> SECOND quick one"]);
  });
});

describe("voice notes in forum topics", () => {
  it("a voice note posted in a session's topic (not a reply) goes to that session, and the words are shown in the topic", async () => {
    const telegram = new MemoryTelegram();
    const topics = {
      ownerOf: (threadId: number) => (threadId === 77 ? { sessionID: "ses_topic", directory: DIRECTORY } : undefined),
    } as unknown as SessionTopics;
    const sent: Array<{ sessionID: string; threadId: number | undefined; text: string }> = [];
    const posts: Array<{ text: string; replyTo: number; threadId: number | undefined }> = [];
    const voice = new VoiceNotes({
      telegram,
      registry: new Registry(),
      topics,
      log: pino({ level: "silent" }),
      t: CATALOGS.en,
      chat: {
        reply: async (text, replyTo, threadId) => void posts.push({ text, replyTo, threadId }),
        post: async (text, replyTo, threadId) => {
          posts.push({ text, replyTo, threadId });
          return { chatId: -100, messageId: 4242 };
        },
      },
      inputs: { typed: () => undefined },
      talk: {
        talkBack: async (owner, userMessage, text) => void sent.push({ sessionID: owner.sessionID, threadId: userMessage.threadId, text }),
        heardVoice: () => undefined,
      },
      settings: { url: service.url, key: service.key, model: "whisper-1" },
    });
    telegram.files.set("t1", { bytes: OGG });
    const update = (threadId: number) =>
      parseUpdate({
        message: {
          message_id: 5,
          from: { id: OWNER },
          chat: { id: -100, type: "supergroup", is_forum: true },
          is_topic_message: true,
          message_thread_id: threadId,
          voice: { file_id: "t1" },
        },
      });
    // (The gate admitted these: the owner, in the configured chat.)
    expect(voice.claim(update(78) as never)).toBeUndefined();
    service.hear("from the topic");
    await voice.claim(update(77) as never)!();
    await vi.waitFor(() => expect(sent).toEqual([{ sessionID: "ses_topic", threadId: 77, text: "from the topic" }]));
    expect(posts).toEqual([{ text: "🎤 <i>Heard:</i> from the topic", replyTo: 5, threadId: 77 }]);
  });
});

describe("the transcriber is loaded on first use", () => {
  it("not when Hermes starts, once on the first voice note, and never again; a load that failed is tried again on the next", async () => {
    const loads: string[] = [];
    let failNext = true;
    const r = setup({
      transcription: { url: service.url, key: service.key, model: "whisper-1" },
      loadTranscriber: async (settings, timeoutMs) => {
        loads.push(settings.url);
        if (failNext) {
          failNext = false;
          throw new Error("module could not be loaded");
        }
        return (await import("../../lib/voice/openai-compatible.ts")).openaiTranscriber(settings, timeoutMs);
      },
    });
    r.bridge.registry.noteMessage({ chatId: CHAT, messageId: 50 }, { sessionID: "ses_1", directory: DIRECTORY });
    expect(loads).toEqual([]);
    const send = async (id: number) => {
      r.telegram.files.set(`l${id}`, { bytes: OGG });
      await r.bridge.handleUpdate({
        update_id: ++updateId,
        message: {
          message_id: id,
          from: { id: OWNER },
          chat: { id: CHAT, type: "private" },
          voice: { file_id: `l${id}` },
          reply_to_message: { message_id: 50 },
        },
      });
    };
    await send(8001);
    await vi.waitFor(() =>
      expect(r.telegram.messages.find((m) => m.replyTo === 8001)?.text).toContain("the transcription failed (Error: module could not be loaded)"),
    );
    await send(8002);
    await send(8003);
    const prompts = () => r.opencode.posts.filter((post) => post.url === "/session/{sessionID}/prompt_async");
    await vi.waitFor(() => expect(prompts()).toHaveLength(2));
    expect(loads).toEqual([service.url, service.url]);
  });
});
