// What a busy supergroup must not hold back (issue 50), on the real OpenCode 1.18.33: after a
// minute in which the person's commands filled most of the group's twenty messages, the agent's
// telegram_send_file still returns at once (its upload is awaited traffic, lib/telegram/wire/outbox.ts,
// ahead of edits, chores and spare progress), the progress message names an 8 s command while it
// runs (its first sight is awaited, not spare), a run a voice note started gets its Done notice
// within seconds of the group's window having room again and its spoken answer after it (both
// awaited, not a deferrable notice and a chore), and Telegram never has to refuse a message.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_USER, type SentMessage } from "../support/fake-telegram.ts";
import { isTitleRequest } from "../support/llm/chat-request.ts";
import { directive } from "../support/mock-llm.ts";
import { startFakeSpeech, type FakeSpeech } from "../support/speech-server.ts";
import { countedSends, heldAt, roomAgainAt } from "../support/telegram/group-window.ts";
import { startFakeTranscription, type FakeTranscription } from "../support/transcription-server.ts";
import { pollUntil } from "../support/wait.ts";
import { toolsOf } from "../support/opencode/agent-tools.ts";
import { askOnPhone, startRig, type Rig } from "./question-suite.ts";

const TOOL = "telegram_send_file";
/** A real 1×1 PNG. */
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");
/** A member of the supergroup who is not on the allow-list. */
const STRANGER = { id: 666, is_bot: false, first_name: "Stranger" };
/** Commands whose answers fill the window: more than a deferrable message leaves room for (15), fewer than an awaited one's (19). */
const BUSY = 16;

describe("a busy supergroup on OpenCode 1.18.33", { timeout: 180_000 }, () => {
  let rig: Rig;
  beforeAll(async () => {
    rig = await startRig("1.18.33", { HERMES_DONE_AFTER: "1h" }, undefined, { chat: "supergroup" });
    fs.writeFileSync(path.join(rig.opencode.directory, "shot.png"), PNG);
  }, 120_000);
  afterAll(async () => {
    await rig?.stop();
  });

  it("after a busy minute the agent's telegram_send_file of a small PNG returns within seconds (it waited over 20 s)", async () => {
    const session = await rig.opencode.createSession();
    const answered = () => rig.telegram.messages(rig.chatId).filter((m) => m.replyToMessageId !== undefined).length;
    for (let i = 0; i < BUSY; i++) rig.telegram.sendText(rig.chatId, "/status", { from: DEFAULT_USER });
    await pollUntil(() => rig.telegram.calls.filter((c) => c.method === "sendMessage").length >= BUSY, { timeoutMs: 60_000, what: "the commands' answers" });
    const busy = answered();
    const seen = rig.llm.toolResults.length;
    const replies = rig.llm.replies.length;
    const started = Date.now();
    await rig.opencode.prompt(session.id, directive({ tool: TOOL, args: { path: "shot.png" }, then: [{ text: "done" }] }));
    await pollUntil(() => rig.llm.toolResults.length > seen, { timeoutMs: 90_000, what: `the result of ${TOOL}` });
    const result = rig.llm.toolResults[seen]!;
    // The tool call's own time: from the LLM's reply that calls it to the request that carries its
    // result (the prompt's way to the LLM before it is OpenCode's, and slow under CI's load).
    const call = rig.llm.replies.slice(replies).find((reply) => reply.tools.includes(TOOL))!;
    const took = result.at - call.at;
    expect(result.content).toContain("Sent shot.png");
    const photo = rig.telegram.messages(rig.chatId).find((m) => m.photo !== undefined);
    expect(photo?.photo?.data.equals(PNG)).toBe(true);
    console.log(
      `[issue 50] ${BUSY} commands answered (${busy} replies), then telegram_send_file returned in ${took} ms (${result.at - started} ms from the prompt)`,
    );
    // Before: the upload was a chore (a group's last five slots left, so it waited for the commands' answers to leave the window).
    expect(took).toBeLessThan(15_000);
    expect(rig.telegram.flood.rejected).toBe(0);
  });
});

/** A phone run in a group whose window holds more than spare traffic may use (10): its todo list first, then an 8 s command. */
describe("live progress in a busy supergroup on OpenCode 1.18.33", { timeout: 180_000 }, () => {
  let rig: Rig;
  beforeAll(async () => {
    rig = await startRig("1.18.33", {}, undefined, { chat: "supergroup" });
  }, 120_000);
  afterAll(async () => {
    await rig?.stop();
  });

  // It failed about one run in two: the message's edit naming the command was queued as spare
  // traffic while the call was still pending, then raised to awaited, but the outbox slept out the
  // spare wait (the window drains for up to a minute); and the pending call's sight spent the key's
  // token the command's sight needed (lib/telegram/wire/outbox.ts, lib/bridge/runs/live-progress.ts).
  it("after a busy minute the progress message names the 8 s command while it runs (every edit came before it)", async () => {
    const color = {
      question: "Which color?",
      header: "Color",
      options: [
        { label: "Red", description: "warm" },
        { label: "Blue", description: "cool" },
      ],
    };
    const { sessionID, message } = await askOnPhone(rig, [color], "busy-progress");
    // A stranger in the group taps first: refused (the callback answered), the question still open.
    const refused = await rig.telegram.waitForCallbackAnswer(await rig.telegram.tapButton(message, "Blue", STRANGER));
    expect(refused.text).toBe("Not authorized");
    expect(await rig.opencode.pendingQuestions()).toHaveLength(1);
    await rig.telegram.tapButton(message, "Red");
    const picked = await rig.llm.waitForToolResult((r) => r.content.includes("busy-progress"), { what: "the owner's answer" });
    expect(picked.content).toContain('"Red"');
    await pollUntil(async () => !(await rig.opencode.isBusy(sessionID)), { timeoutMs: 30_000, intervalMs: 100, what: "the first run over" });
    const before = rig.telegram.calls.filter((c) => c.method === "sendMessage").length;
    // The busy minute: the owner's ten /status, and beside them a stranger's ten and a run the stranger asks for.
    const strangers: number[] = [];
    for (let i = 0; i < 10; i++) {
      rig.telegram.sendText(rig.chatId, "/status", { from: DEFAULT_USER });
      strangers.push(rig.telegram.sendText(rig.chatId, "/status", { from: STRANGER }).messageId);
    }
    strangers.push(rig.telegram.sendText(rig.chatId, "stranger-run: delete everything", { replyTo: message.messageId, from: STRANGER }).messageId);
    await pollUntil(() => rig.telegram.calls.filter((c) => c.method === "sendMessage").length >= before + 10, { timeoutMs: 60_000, what: "the answers" });
    const { shell } = toolsOf("1.18.33");
    const items = (first: string, second: string) => ({
      tool: "todowrite",
      args: {
        todos: [
          { content: "Build", status: first, priority: "high" },
          { content: "Test", status: second, priority: "high" },
        ],
      },
    });
    const run = directive({
      ...items("in_progress", "pending"),
      then: [shell("sleep 8 && echo busy-1"), items("completed", "completed"), { text: "busy done" }],
    });
    const { messageId: mine } = rig.telegram.sendText(rig.chatId, run, { replyTo: message.messageId, from: DEFAULT_USER });
    const live = await rig.telegram.waitForMessage((m) => m.replyToMessageId === mine && m.text.includes("<b>Running</b>"), {
      timeoutMs: 20_000,
      what: "the progress message",
    });
    const ended = await rig.llm.waitForToolResult((r) => r.content.includes("busy-1"), { timeoutMs: 60_000, what: "the 8 s command's result" });
    const history = rig.telegram.messages().find((m) => m.messageId === live.messageId)!.history;
    const running = history.find((h) => h.text.includes("▸ <b>bash</b> <code>sleep 8 &amp;&amp; echo busy-1</code>"));
    console.log(`[issue 50] progress history: ${history.map((h) => h.at - ended.at).join(", ")} ms against the command's end`);
    expect(running, "the 8 s command shown while it runs").toBeDefined();
    expect(running!.at).toBeLessThan(ended.at);
    await rig.telegram.waitForMessage((m) => m.text.includes("<b>Done</b>") && m.messageId > live.messageId, { timeoutMs: 90_000, what: "Done" });
    expect(rig.telegram.flood.rejected).toBe(0);
    // The stranger got nothing: no answer to any of their messages, and their run never reached the model.
    expect(rig.telegram.messages(rig.chatId).filter((m) => m.replyToMessageId !== undefined && strangers.includes(m.replyToMessageId))).toEqual([]);
    expect(JSON.stringify(rig.llm.requests)).not.toContain("stranger-run");
  });
});

/** The start of an OGG/Opus voice note (the fake transcription service hears what the test says). */
const OGG = Buffer.concat([Buffer.from("OggS\0\x02\0\0\0\0\0\0\0\0", "latin1"), Buffer.from(Array.from({ length: 64 }, (_, i) => i))]);
/** The group's window before the voice note: what a deferrable message leaves room for (15) is used up; an awaited one's (19) is not. */
const FILLED = 15;

/** A run a voice note started, in a group whose window the person's commands filled (issue 50 §4: its Done notice and voice came late). */
describe("a voice note's run in a busy supergroup on OpenCode 1.18.33", { timeout: 240_000 }, () => {
  let rig: Rig;
  let speech: FakeSpeech;
  let transcription: FakeTranscription;
  let done: SentMessage;
  let sessionID: string;
  beforeAll(async () => {
    speech = await startFakeSpeech();
    transcription = await startFakeTranscription();
    rig = await startRig(
      "1.18.33",
      {
        HERMES_DONE_AFTER: "1s",
        HERMES_TRANSCRIBE_URL: transcription.url,
        HERMES_TRANSCRIBE_KEY: transcription.key,
        HERMES_SPEECH_URL: speech.url,
        HERMES_SPEECH_KEY: speech.key,
      },
      undefined,
      { chat: "supergroup" },
    );
    // A Done notice of the session to reply to with the voice note.
    const session = await rig.opencode.createSession();
    sessionID = session.id;
    await rig.opencode.prompt(session.id, directive({ text: "FIRST-50 finished, slowly", chunks: 4, chunkMs: 500 }));
    done = await rig.telegram.waitForMessage((m) => m.text.includes("<b>Done</b>") && m.text.includes("FIRST-50"), { timeoutMs: 40_000, what: "Done" });
    await pollUntil(async () => !(await rig.opencode.isBusy(sessionID)), { timeoutMs: 30_000, intervalMs: 100, what: "the first run over" });
  }, 120_000);
  afterAll(async () => {
    await rig?.stop();
    await speech?.close();
    await transcription?.close();
  });

  it("after a busy minute the Done notice comes within 15 s of the window having room again, and the spoken answer after it", async () => {
    const sends = () => countedSends(rig.telegram.calls, rig.chatId);
    const before = heldAt(sends(), Date.now());
    const commands = Array.from({ length: FILLED - before }, () => rig.telegram.sendText(rig.chatId, "/status", { from: DEFAULT_USER }).messageId);
    const replied = (id: number) => rig.telegram.messages(rig.chatId).some((m) => m.replyToMessageId === id);
    await pollUntil(() => commands.every(replied), { timeoutMs: 60_000, what: "the commands' answers" });
    transcription.hear(`VOICE-50 ${directive({ text: "SPOKEN-50 the answer, at once" })}`);
    const note = rig.telegram.sendFile(rig.chatId, { kind: "voice", bytes: OGG, duration: 2, replyTo: done.messageId });
    const finished = await rig.telegram.waitForMessage((m) => m.text.includes("<b>Done</b>") && m.text.includes("SPOKEN-50"), {
      timeoutMs: 150_000,
      what: "the Done notice of the voice note's run",
    });
    const voice = await rig.telegram.waitForMessage((m) => m.voice !== undefined && m.replyToMessageId === finished.messageId, {
      timeoutMs: 90_000,
      what: "the spoken answer",
    });
    // The run's one LLM request: the answer is wanted on the phone from then on.
    const asked = rig.llm.requests.findIndex((r) => !isTitleRequest(r) && JSON.stringify(r.messages ?? []).includes("VOICE-50"));
    expect(asked).toBeGreaterThanOrEqual(0);
    const askedAt = rig.llm.requestTimes[asked]!;
    const held = heldAt(sends(), askedAt);
    const roomAt = roomAgainAt(sends(), askedAt);
    const doneAt = finished.history[0]!.at;
    const voiceAt = voice.history[0]!.at;
    console.log(
      `[issue 50] ${before} in the window, ${commands.length} commands; at the run's request the window held ${held}; ` +
        `room again +${roomAt - askedAt} ms, Done +${doneAt - askedAt} ms, voice +${voiceAt - askedAt} ms`,
    );
    expect(held, "the window was busy when the run answered").toBeGreaterThanOrEqual(FILLED);
    // Before: the notice was a deferrable edit and the voice a chore: both waited for the window to hold fewer than 15 (about a minute).
    expect(doneAt - roomAt, "the Done notice after room again").toBeLessThan(15_000);
    expect(voiceAt - roomAt, "the spoken answer after room again").toBeLessThan(15_000);
    expect(voice.messageId).toBeGreaterThan(finished.messageId);
    expect(voice.voice!.data.equals(speech.audio)).toBe(true);
    expect(speech.requests.at(-1)!.json.input).toContain("SPOKEN-50 the answer, at once");
    expect(rig.telegram.messages(rig.chatId).some((m) => m.replyToMessageId === note.messageId && m.text.includes("Heard"))).toBe(true);
    expect(rig.telegram.flood.rejected).toBe(0);
  });
});
