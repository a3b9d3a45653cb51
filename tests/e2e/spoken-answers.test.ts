// Spoken answers end to end on the real OpenCode, with the fake transcription service (voice notes
// become prompts) and the fake OpenAI-compatible speech service on loopback: a run a voice note
// started gets, after its Done notice, a voice message with the service's exact OGG bytes (the
// service asked for Opus with the model, the voice and the key, and given the answer as words: a
// code block named, a secret the agent printed left out); a typed run gets none (auto); /voice off
// stops it and /voice on speaks typed runs too; a failing service gives one clear message and the
// text answer unchanged; a voice answer to a question makes the run it continues spoken too. And a speech service Hermes must not trust: its loopback port taken by
// another user of the machine gets neither the words nor the key, and the phone says why.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_CHAT_ID, type SentMessage } from "../support/fake-telegram.ts";
import { type ForeignListener, startForeignListener, foreignListenerSkip } from "../support/foreign-listener.ts";
import { directive } from "../support/mock-llm.ts";
import type { OpencodeVersion } from "../support/opencode.ts";
import { startFakeSpeech, type FakeSpeech } from "../support/speech-server.ts";
import { startFakeTranscription, type FakeTranscription } from "../support/transcription-server.ts";
import { pollUntil } from "../support/wait.ts";
import { askOnPhone, startRig, type Rig } from "./question-suite.ts";

const OGG = Buffer.concat([Buffer.from("OggS\0\x02\0\0\0\0\0\0\0\0", "latin1"), Buffer.from(Array.from({ length: 64 }, (_, i) => i))]);
const VERSIONS: OpencodeVersion[] = ["1.18.33", "2.0.15"];

describe.each(VERSIONS)("spoken answers on OpenCode %s", (version) => {
  let rig: Rig;
  let speech: FakeSpeech;
  let transcription: FakeTranscription;
  let done: SentMessage;
  let sessionID: string;
  beforeAll(async () => {
    speech = await startFakeSpeech();
    transcription = await startFakeTranscription();
    rig = await startRig(version, {
      HERMES_DONE_AFTER: "1s",
      HERMES_TRANSCRIBE_URL: transcription.url,
      HERMES_TRANSCRIBE_KEY: transcription.key,
      HERMES_SPEECH_URL: speech.url,
      HERMES_SPEECH_KEY: speech.key,
      HERMES_SPEECH_VOICE: "nova",
    });
    const session = await rig.opencode.createSession();
    sessionID = session.id;
    await rig.opencode.prompt(session.id, directive({ text: "FIRST-0 finished, slowly", chunks: 4, chunkMs: 500 }));
    done = await waitDone("FIRST-0");
  }, 120_000);
  afterAll(async () => {
    await rig?.stop();
    await speech?.close();
    await transcription?.close();
  });

  const voices = () => rig.telegram.messages().filter((m) => m.voice !== undefined);
  const repliesTo = (message: SentMessage) => rig.telegram.messages().filter((m) => m.replyToMessageId === message.messageId);
  function waitDone(tag: string): Promise<SentMessage> {
    return rig.telegram.waitForMessage((m) => m.text.includes("<b>Done</b>") && m.text.includes(tag), { timeoutMs: 40_000, what: `Done of ${tag}` });
  }
  async function idle(): Promise<void> {
    await pollUntil(async () => !(await rig.opencode.isBusy(sessionID)), { timeoutMs: 30_000, intervalMs: 100, what: "the session idle" });
  }
  /** A voice note replying to `to` whose words ask the scripted LLM to answer `text`. */
  async function byVoice(to: SentMessage, tag: string, text: string): Promise<SentMessage> {
    await idle();
    transcription.hear(`${tag} ${directive({ text })}`);
    rig.telegram.sendFile(DEFAULT_CHAT_ID, { kind: "voice", bytes: OGG, duration: 2, replyTo: to.messageId });
    return waitDone(text.slice(0, 10));
  }
  async function typed(to: SentMessage, text: string): Promise<SentMessage> {
    await idle();
    rig.telegram.sendText(DEFAULT_CHAT_ID, directive({ text }), { replyTo: to.messageId });
    return waitDone(text.slice(0, 10));
  }
  async function command(text: string): Promise<string> {
    const sent = rig.telegram.sendText(DEFAULT_CHAT_ID, text);
    return (await rig.telegram.waitForMessage((m) => m.replyToMessageId === sent.messageId, { what: `the answer to ${text}` })).text;
  }

  it("a run a voice note started: after its Done notice, the service's exact Opus bytes as a voice message; asked with the model, the voice and the key; code named, the key not read", async () => {
    const answer = `SPOKEN-1 here is the list.\n\n\`\`\`sh\nls -la\npwd\n\`\`\`\n\nThe key was ${speech.key} by mistake.`;
    const finished = await byVoice(done, "VOICE-1", answer);
    const voice = await rig.telegram.waitForMessage((m) => m.voice !== undefined && m.replyToMessageId === finished.messageId, { what: "the voice message" });
    expect(voice.voice!.data.equals(speech.audio)).toBe(true);
    expect(voice.messageId).toBeGreaterThan(finished.messageId);
    const asked = speech.requests.at(-1)!;
    expect(asked.authorization).toBe(`Bearer ${speech.key}`);
    expect(asked.json).toMatchObject({ model: "tts-1", voice: "nova", response_format: "opus" });
    expect(asked.json.input).toContain("SPOKEN-1 here is the list.");
    expect(asked.json.input).toContain("(a code block of 2 lines)");
    expect(asked.json.input).not.toContain("pwd");
    expect(asked.json.input).not.toContain(speech.key);
    // The text stays above it, whole (the key scrubbed as in every message).
    expect(finished.text).toContain("SPOKEN-1 here is the list.");
    expect(finished.text).not.toContain(speech.key);
    // The run the terminal started before got no voice.
    expect(voices()).toHaveLength(1);
    done = finished;
  });

  it("auto: a typed run gets no voice; /voice off stops it for a voice note too; /voice on speaks a typed run", async () => {
    const before = voices().length;
    const typedDone = await typed(done, "TYPED-2 no voice for me");
    expect(await command("/voice off")).toContain("Spoken answers: <b>off</b>");
    const voiceDone = await byVoice(typedDone, "VOICE-3", "VOICE-3 answer, not spoken");
    expect(await command("/voice on")).toContain("Spoken answers: <b>on</b>");
    const onDone = await typed(voiceDone, "TYPED-4 spoken because on");
    // The signal: the voice of the last run came; the two before it have none.
    await rig.telegram.waitForMessage((m) => m.voice !== undefined && m.replyToMessageId === onDone.messageId, { what: "the voice of TYPED-4" });
    expect(voices().length - before).toBe(1);
    expect(repliesTo(typedDone).filter((m) => m.voice)).toEqual([]);
    expect(repliesTo(voiceDone).filter((m) => m.voice)).toEqual([]);
    expect(await command("/voice auto")).toContain("Spoken answers: <b>auto</b>");
    expect(await command("/voice loud")).toContain("/voice on");
    done = onDone;
  });

  it("a failing speech service: one clear message with its status, replying to the Done notice, whose answer is unchanged", async () => {
    speech.fail(500);
    const before = voices().length;
    const finished = await byVoice(done, "VOICE-5", "FAILED-5 the whole answer stays in the text");
    const said = await rig.telegram.waitForMessage((m) => m.replyToMessageId === finished.messageId && m.text.includes("could not be spoken"), {
      what: "the failure",
    });
    expect(said.text).toBe("⚠️ The answer could not be spoken (HTTP 500: the speech service failed (500)). It is in the text above.");
    expect(finished.text).toContain("FAILED-5 the whole answer stays in the text");
    expect(said.text).not.toContain(speech.key);
    // The next voice run is spoken again: the failure was said once, for its run only.
    const next = await byVoice(finished, "VOICE-6", "AFTER-6 spoken again");
    await rig.telegram.waitForMessage((m) => m.voice !== undefined && m.replyToMessageId === next.messageId, { what: "the voice of AFTER-6" });
    expect(repliesTo(finished).filter((m) => m.text.includes("could not be spoken"))).toHaveLength(1);
    expect(voices().length - before).toBe(1);
  });

  it("a run a voice note continued by answering its question is answered in voice too", async () => {
    const question = { question: "Which color?", header: "Color", options: [{ label: "Red", description: "warm" }] };
    const { message } = await askOnPhone(rig, [question], "VOICE-Q8");
    await rig.telegram.tapButton(message, "Type an answer");
    const ask = await rig.telegram.waitForMessage((m) => m.replyMarkup?.force_reply === true && !m.deleted, { what: "the force reply" });
    transcription.hear("TEAL-8 like the sea");
    rig.telegram.sendFile(DEFAULT_CHAT_ID, { kind: "voice", bytes: OGG, duration: 2, replyTo: ask.messageId });
    const finished = await waitDone("TEAL-8 like the sea");
    await rig.telegram.waitForMessage((m) => m.voice !== undefined && m.replyToMessageId === finished.messageId, { what: "the voice of the answered run" });
    expect(speech.requests.at(-1)!.json.input).toContain("TEAL-8 like the sea");
  });
});

describe.skipIf(foreignListenerSkip !== undefined)("a speech service Hermes must not trust, on OpenCode 1.18.33", () => {
  let rig: Rig;
  let port: number;
  /** Holds the service's port from the start (another test could take a port chosen and let go). */
  let squatter: ForeignListener;
  const KEY = "sk-squatted-speech-123456";
  beforeAll(async () => {
    squatter = await startForeignListener(0);
    port = squatter.port;
    rig = await startRig("1.18.33", { HERMES_DONE_AFTER: "1s", HERMES_SPEECH_URL: `http://127.0.0.1:${port}/v1`, HERMES_SPEECH_KEY: KEY });
  }, 120_000);
  afterAll(async () => {
    await squatter?.close();
    await rig?.stop();
  });

  it("another uid listening on the service's loopback port gets neither the words nor the key; the phone says why, once", async () => {
    const on = rig.telegram.sendText(DEFAULT_CHAT_ID, "/voice on");
    await rig.telegram.waitForMessage((m) => m.replyToMessageId === on.messageId, { what: "the answer to /voice on" });
    const session = await rig.opencode.createSession();
    await rig.opencode.prompt(session.id, directive({ text: "SQUAT-7 secret words, slowly", chunks: 4, chunkMs: 500 }));
    const finished = await rig.telegram.waitForMessage((m) => m.text.includes("<b>Done</b>") && m.text.includes("SQUAT-7"), {
      timeoutMs: 40_000,
      what: "Done",
    });
    const said = await rig.telegram.waitForMessage((m) => m.replyToMessageId === finished.messageId, { what: "the refusal" });
    expect(said.text).toContain(`127.0.0.1:${port} is listened on by another user of this machine (uid 65534)`);
    expect(squatter.requests).toEqual([]);
    expect(rig.telegram.messages().filter((m) => m.voice !== undefined)).toEqual([]);
    expect(rig.telegram.messages().some((m) => m.text.includes(KEY))).toBe(false);
  });
});
