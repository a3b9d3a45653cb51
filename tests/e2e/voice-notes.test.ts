// Voice notes end to end on the real OpenCode, with the fake Telegram serving voice notes and audio
// through getFile and the fake OpenAI-compatible transcription server on loopback: a voice note
// replying to a session's message is transcribed (the service gets its exact bytes, the model and
// the key), the LLM receives the words in that session, and the phone shows them; a voice answer
// reaches a question; a failing service, a stranger and a Hermes without a service send nothing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SUPERGROUP_CHAT_ID } from "../support/chat-kind.ts";
import { DEFAULT_CHAT_ID, type SentMessage } from "../support/fake-telegram.ts";
import { isTitleRequest } from "../support/llm/chat-request.ts";
import { directive } from "../support/mock-llm.ts";
import { toolsOf } from "../support/opencode/agent-tools.ts";
import { OPENCODE2_VERSION, OPENCODE_VERSIONS, type OpencodeVersion } from "../support/opencode.ts";
import { startFakeTranscription, type FakeTranscription } from "../support/transcription-server.ts";
import { pollUntil, sleep } from "../support/wait.ts";
import { askOnPhone, startRig, type Rig } from "./question-suite.ts";

/** The start of an OGG/Opus voice note, then bytes of every value (the service must get them unchanged). */
const OGG = Buffer.concat([Buffer.from("OggS\0\x02\0\0\0\0\0\0\0\0", "latin1"), Buffer.from(Array.from({ length: 256 }, (_, i) => i))]);
const MP3 = Buffer.concat([Buffer.from("ID3\x04\0\0\0\0\0\0", "latin1"), Buffer.from([0xff, 0xfb, 0x90, 0x64, 0, 0, 0, 0])]);
const STRANGER = { id: 666, is_bot: false, first_name: "Stranger" };
const MODEL = "whisper-large-v3";
/** The result is text, so OpenCode 2 takes it as 1.x does. */
const VERSIONS: OpencodeVersion[] = [...OPENCODE_VERSIONS, OPENCODE2_VERSION];

describe.each(VERSIONS)("voice notes on OpenCode %s", (version) => {
  let rig: Rig;
  let service: FakeTranscription;
  let done: SentMessage;
  const sessions: string[] = [];
  beforeAll(async () => {
    service = await startFakeTranscription();
    rig = await startRig(version, {
      HERMES_DONE_AFTER: "2s",
      HERMES_TRANSCRIBE_URL: service.url,
      HERMES_TRANSCRIBE_KEY: service.key,
      HERMES_TRANSCRIBE_MODEL: MODEL,
    });
    const session = await rig.opencode.createSession();
    sessions.push(session.id);
    await rig.opencode.prompt(session.id, directive({ ...toolsOf(version).shell("sleep 3"), then: [{ text: "first run finished" }] }));
    done = await rig.telegram.waitForMessage((m) => m.text.includes("<b>Done</b>") && m.text.includes("first run finished"), {
      timeoutMs: 40_000,
      what: "Done",
    });
  }, 120_000);
  afterAll(async () => {
    await rig?.stop();
    await service?.close();
  });

  /** The session's own LLM call whose messages contain `needle`. */
  const requestWith = (needle: string) =>
    pollUntil(() => rig.llm.requests.find((r) => !isTitleRequest(r) && JSON.stringify(r.messages ?? []).includes(needle)), {
      timeoutMs: 30_000,
      what: `an LLM request with ${needle}`,
    });
  /** The LLM calls sessions made (title requests left out: OpenCode makes them on its own schedule). */
  const sessionRequests = () => rig.llm.requests.filter((r) => !isTitleRequest(r)).length;
  const getFiles = (fileId: string) => rig.telegram.calls.filter((c) => c.method === "getFile" && c.payload.file_id === fileId);
  const reactedTo = (messageId: number) => rig.telegram.calls.some((c) => c.method === "setMessageReaction" && Number(c.payload.message_id) === messageId);
  /** Every session the tests ran is idle (asked the way each version answers). */
  async function idle(): Promise<void> {
    for (const id of sessions)
      await pollUntil(async () => !(await rig.opencode.isBusy(id)), { timeoutMs: 30_000, intervalMs: 100, what: `session ${id} idle` });
  }

  it("a voice note replying to the Done notice: the service gets its exact bytes with the model and the key, the LLM gets the words in that session, the phone shows them", async () => {
    service.hear("VOICE-71 list the files you changed");
    const before = service.requests.length;
    const sent = rig.telegram.sendFile(DEFAULT_CHAT_ID, { kind: "voice", bytes: OGG, duration: 3, replyTo: done.messageId });
    const request = await requestWith("VOICE-71");
    const user = request.messages.filter((m: any) => m.role === "user").pop();
    expect(JSON.stringify(user.content)).toContain("VOICE-71 list the files you changed");
    expect(JSON.stringify(request.messages)).toContain("first run finished"); // the same session: its history is there
    expect(service.requests.length - before).toBe(1);
    const heard = service.requests[before]!;
    expect(heard.file?.data.equals(OGG)).toBe(true);
    expect(heard.fields.model).toBe(MODEL);
    expect(heard.authorization).toBe(`Bearer ${service.key}`);
    expect(getFiles(sent.fileId)).toHaveLength(1);
    const shown = await rig.telegram.waitForMessage((m) => m.replyToMessageId === sent.messageId && m.text.includes("Heard"), { what: "the words" });
    expect(shown.text).toBe("🎤 <i>Heard:</i> VOICE-71 list the files you changed");
    await pollUntil(() => reactedTo(sent.messageId), { what: "the 👍 on the voice note" });
    await idle();
    // A reply to what was heard continues the session.
    rig.telegram.sendText(DEFAULT_CHAT_ID, "TYPED-72 and the tests too", { replyTo: shown.messageId });
    const next = await requestWith("TYPED-72");
    expect(JSON.stringify(next.messages)).toContain("VOICE-71");
    await idle();
  });

  it("a voice answer to 'Type an answer' reaches the question", async () => {
    service.hear("teal, like the sea");
    const { message, sessionID } = await askOnPhone(
      rig,
      [{ question: "Which color?", header: "Color", options: [{ label: "Red", description: "warm" }] }],
      "voice",
    );
    sessions.push(sessionID);
    await rig.telegram.tapButton(message, "Type an answer");
    const ask = await rig.telegram.waitForMessage((m) => m.replyMarkup?.force_reply === true && !m.deleted, { what: "force reply prompt" });
    const sent = rig.telegram.sendFile(DEFAULT_CHAT_ID, { kind: "voice", bytes: OGG, replyTo: ask.messageId });
    const result = await rig.llm.waitForToolResult((r) => r.content.includes("voice"), { what: "tool result" });
    expect(result.content).toContain("teal, like the sea");
    const shown = await rig.telegram.waitForMessage((m) => m.replyToMessageId === sent.messageId, { what: "the answer as heard" });
    expect(shown.text).toBe("🎤 <i>Your answer, as heard:</i> teal, like the sea");
    await idle();
  });

  it("a service that answers 500: said on the phone, nothing sent, and no duplicate later; an audio file after it goes through once", async () => {
    service.fail({ status: 500 });
    service.hear("FAILED-73 this must never reach the agent");
    const before = sessionRequests();
    const asked = service.requests.length;
    const sent = rig.telegram.sendFile(DEFAULT_CHAT_ID, { kind: "voice", bytes: OGG, replyTo: done.messageId });
    const refusal = await rig.telegram.waitForMessage((m) => m.replyToMessageId === sent.messageId, { what: "the refusal" });
    expect(refusal.text).toBe("⚠️ Not sent to the agent: the transcription failed (HTTP 500: the service failed (500)).");
    await sleep(1_500);
    expect(sessionRequests()).toBe(before);
    expect(service.requests.length - asked).toBe(1);
    service.hear("AUDIO-74 now run the tests");
    const audio = rig.telegram.sendFile(DEFAULT_CHAT_ID, { kind: "audio", bytes: MP3, fileName: "memo.mp3", mime: "audio/mpeg", replyTo: done.messageId });
    await requestWith("AUDIO-74");
    await idle();
    expect(service.requests.length - asked).toBe(2);
    expect(service.requests.at(-1)?.file?.data.equals(MP3)).toBe(true);
    expect(getFiles(audio.fileId)).toHaveLength(1);
    expect(rig.llm.requests.filter((r) => JSON.stringify(r.messages ?? []).includes("FAILED-73"))).toEqual([]);
    expect(
      rig.llm.requests.filter((r) => !isTitleRequest(r) && JSON.stringify(r.messages ?? []).includes("AUDIO-74 now run the tests")).length,
    ).toBeGreaterThan(0);
    // One prompt from the audio: the user message appears once in the session's history.
    const last = rig.llm.requests.filter((r) => !isTitleRequest(r)).at(-1);
    expect(JSON.stringify(last.messages).split("AUDIO-74 now run the tests").length - 1).toBe(1);
  });

  it("a stranger's voice note is never downloaded nor transcribed", async () => {
    const before = sessionRequests();
    const asked = service.requests.length;
    const sent = rig.telegram.sendFile(DEFAULT_CHAT_ID, { kind: "voice", bytes: OGG, replyTo: done.messageId, from: STRANGER });
    // A voice note of the owner sent after it is handled (it replies to nothing: a hint), so the stranger's update was seen by then.
    const probe = rig.telegram.sendFile(DEFAULT_CHAT_ID, { kind: "voice", bytes: OGG });
    const hint = await rig.telegram.waitForMessage((m) => m.replyToMessageId === probe.messageId, { what: "the hint to the probe" });
    expect(hint.text).toContain("reply with the voice note to a Hermes message");
    expect(getFiles(sent.fileId)).toEqual([]);
    expect(getFiles(probe.fileId)).toEqual([]);
    expect(service.requests.length).toBe(asked);
    expect(rig.telegram.messages().filter((m) => m.replyToMessageId === sent.messageId)).toEqual([]);
    expect(sessionRequests()).toBe(before);
  });
});

describe.each(VERSIONS)("voice notes without a transcription service, in a group, on OpenCode %s", (version) => {
  let rig: Rig;
  beforeAll(async () => {
    rig = await startRig(version, {}, undefined, { chat: "supergroup" });
  }, 120_000);
  afterAll(async () => {
    await rig?.stop();
  });

  it("the phone names HERMES_TRANSCRIBE_URL; nothing is downloaded, nothing is sent", async () => {
    const { message } = await askOnPhone(rig, [{ question: "Which color?", header: "Color", options: [{ label: "Red", description: "warm" }] }], "off");
    const before = rig.llm.requests.filter((r) => !isTitleRequest(r)).length;
    const sent = rig.telegram.sendFile(SUPERGROUP_CHAT_ID, { kind: "voice", bytes: OGG, replyTo: message.messageId });
    const refusal = await rig.telegram.waitForMessage((m) => m.replyToMessageId === sent.messageId, { what: "the refusal" });
    expect(refusal.text).toContain("Set <code>HERMES_TRANSCRIBE_URL</code>");
    expect(refusal.text).toContain("README, section “Voice notes”");
    expect(rig.telegram.calls.filter((c) => c.method === "getFile")).toEqual([]);
    expect(rig.telegram.downloads).toEqual([]);
    await sleep(500);
    expect(rig.llm.requests.filter((r) => !isTitleRequest(r)).length).toBe(before);
  });
});
