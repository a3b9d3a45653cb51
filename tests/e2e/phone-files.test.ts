// Photos and files from the phone, end to end on the real OpenCode: a photo or document sent as a
// reply to a Hermes message of a session reaches the mock LLM in that session's next request (the
// image as a data URL, a text file's text); what is refused is said on the phone, and a stranger's
// file is never downloaded.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_CHAT_ID, type SentMessage } from "../support/fake-telegram.ts";
import { isTitleRequest } from "../support/llm/chat-request.ts";
import { directive } from "../support/mock-llm.ts";
import { OPENCODE_VERSIONS } from "../support/opencode.ts";
import { pollUntil, sleep } from "../support/wait.ts";
import { startRig, type Rig } from "./question-suite.ts";

/** An 8×8 baseline JPEG. */
const JPEG = Buffer.from(
  "/9j/4AAQSkZJRgABAQEAYABgAAD/2wBDAAgGBgcGBQgHBwcJCQgKDBQNDAsLDBkSEw8UHRofHh0aHBwgJC4nICIsIxwcKDcpLDAxNDQ0Hyc5PTgyPC4zNDL/wAALCAABAAEBAREA/8QAHwAAAQUBAQEBAQEAAAAAAAAAAAECAwQFBgcICQoL/8QAtRAAAgEDAwIEAwUFBAQAAAF9AQIDAAQRBRIhMUEGE1FhByJxFDKBkaEII0KxwRVS0fAkM2JyggkKFhcYGRolJicoKSo0NTY3ODk6Q0RFRkdISUpTVFVWV1hZWmNkZWZnaGlqc3R1dnd4eXqDhIWGh4iJipKTlJWWl5iZmqKjpKWmp6ipqrKztLW2t7i5usLDxMXGx8jJytLT1NXW19jZ2uHi4+Tl5ufo6erx8vP09fb3+Pn6/9oACAEBAAA/APn+iiigD//Z",
  "base64",
);
const STRANGER = { id: 666, is_bot: false, first_name: "Stranger" };

describe.each(OPENCODE_VERSIONS)("photos and files from the phone on OpenCode %s", (version) => {
  let rig: Rig;
  let done: SentMessage;
  beforeAll(async () => {
    // The mock model declares image input: without it OpenCode hands the LLM an error text instead.
    rig = await startRig(version, { HERMES_DONE_AFTER: "2s" }, undefined, {
      mockModel: { attachment: true, modalities: { input: ["text", "image"], output: ["text"] } },
    });
    const session = await rig.opencode.createSession();
    await rig.opencode.prompt(
      session.id,
      directive({ tool: "bash", args: { command: "sleep 3", description: "wait" }, then: [{ text: "first run finished" }] }),
    );
    done = await rig.telegram.waitForMessage((m) => m.text.includes("<b>Done</b>") && m.text.includes("first run finished"), {
      timeoutMs: 40_000,
      what: "Done",
    });
  }, 120_000);
  afterAll(async () => {
    await rig?.stop();
  });

  /** The session's own LLM call whose messages contain `needle`. */
  const requestWith = (needle: string) =>
    pollUntil(() => rig.llm.requests.find((r) => !isTitleRequest(r) && JSON.stringify(r.messages ?? []).includes(needle)), {
      timeoutMs: 20_000,
      what: `an LLM request with ${needle.slice(0, 60)}`,
    });
  /**
   * The LLM calls a session made (a prompt reached it). Title requests are left out: OpenCode makes
   * them on its own schedule, and under load one of an earlier prompt can arrive during a later test.
   */
  const sessionRequests = () => rig.llm.requests.filter((r) => !isTitleRequest(r)).length;
  const repliesTo = (messageId: number) => rig.telegram.messages().filter((m) => m.replyToMessageId === messageId);
  const reactedTo = (messageId: number) => rig.telegram.calls.some((c) => c.method === "setMessageReaction" && Number(c.payload.message_id) === messageId);
  async function idle(): Promise<void> {
    await pollUntil(
      async () => {
        const status = await rig.opencode.request<Record<string, { type: string }>>("GET", "/session/status");
        return Object.values(status.body ?? {}).every((entry) => entry.type === "idle");
      },
      { timeoutMs: 30_000, intervalMs: 100, what: "every session idle" },
    );
  }

  it("a photo with a caption, as a reply to the Done notice, reaches the LLM as an image in that session", async () => {
    const sent = rig.telegram.sendFile(DEFAULT_CHAT_ID, { kind: "photo", bytes: JPEG, caption: "what is in this picture?", replyTo: done.messageId });
    const request = await requestWith(JPEG.toString("base64"));
    const user = request.messages.filter((m: any) => m.role === "user").pop();
    expect(user.content).toContainEqual({ type: "text", text: "what is in this picture?" });
    expect(user.content).toContainEqual({ type: "image_url", image_url: { url: `data:image/jpeg;base64,${JPEG.toString("base64")}` } });
    expect(JSON.stringify(request.messages)).toContain("first run finished"); // the same session: its history is there
    await pollUntil(() => reactedTo(sent.messageId), { what: "the 👍 on the photo" });
    expect(rig.telegram.downloads).toHaveLength(1);
    await idle();
  });

  it("a text file without a caption reaches the LLM as its text, whatever type the phone claims", async () => {
    const content = '{ "setting": "SECRET-TEXT-42", "note": "first line\\nsecond line" }\n';
    const sent = rig.telegram.sendFile(DEFAULT_CHAT_ID, {
      kind: "document",
      bytes: Buffer.from(content),
      fileName: "config.json",
      mime: "application/json",
      replyTo: done.messageId,
    });
    const request = await requestWith("SECRET-TEXT-42");
    const user = request.messages.filter((m: any) => m.role === "user").pop();
    expect(JSON.stringify(user.content)).toContain(JSON.stringify(`File "config.json", sent from Telegram:\n\n${content}`).slice(1, -1));
    await pollUntil(() => reactedTo(sent.messageId), { what: "the 👍 on the file" });
    await idle();
    // The run did not fail: 1.1.53 fails a run for an application/json file part, so none was sent.
    expect(rig.telegram.messages().some((m) => m.text.includes("<b>Failed</b>"))).toBe(false);
  });

  it("an album of two images with one caption reaches the LLM as one message", async () => {
    const png = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");
    rig.telegram.sendFile(DEFAULT_CHAT_ID, { kind: "photo", bytes: JPEG, caption: "before and after", replyTo: done.messageId, albumId: "album-1" });
    rig.telegram.sendFile(DEFAULT_CHAT_ID, {
      kind: "document",
      bytes: png,
      fileName: "after.png",
      mime: "image/png",
      replyTo: done.messageId,
      albumId: "album-1",
    });
    const request = await requestWith("before and after");
    const user = request.messages.filter((m: any) => m.role === "user").pop();
    expect(user.content).toEqual([
      { type: "text", text: "before and after" },
      { type: "image_url", image_url: { url: `data:image/jpeg;base64,${JPEG.toString("base64")}` } },
      { type: "image_url", image_url: { url: `data:image/png;base64,${png.toString("base64")}` } },
    ]);
    await idle();
  });

  it("a file over Telegram's 20 MB bot limit is refused on the phone and never fetched", async () => {
    const before = sessionRequests();
    const sent = rig.telegram.sendFile(DEFAULT_CHAT_ID, {
      kind: "document",
      bytes: Buffer.from("tiny"),
      reportedSize: 25 * 1024 * 1024,
      fileName: "huge.log",
      mime: "text/plain",
      replyTo: done.messageId,
    });
    const refusal = await rig.telegram.waitForMessage((m) => m.replyToMessageId === sent.messageId, { what: "the refusal" });
    expect(refusal.text).toContain("25 MB");
    expect(refusal.text).toContain("at most 20 MB");
    expect(rig.telegram.calls.filter((c) => c.method === "getFile" && c.payload.file_id === sent.fileId)).toEqual([]);
    expect(sessionRequests()).toBe(before);
  });

  it("a file type Hermes does not take is refused, naming it", async () => {
    const before = sessionRequests();
    const sent = rig.telegram.sendFile(DEFAULT_CHAT_ID, {
      kind: "document",
      bytes: Buffer.from([0x50, 0x4b, 0x03, 0x04, 0, 0, 1, 2]),
      fileName: "src<b>.zip",
      mime: "application/zip",
      replyTo: done.messageId,
    });
    const refusal = await rig.telegram.waitForMessage((m) => m.replyToMessageId === sent.messageId, { what: "the refusal" });
    expect(refusal.text).toContain("not <code>application/zip src&lt;b&gt;.zip</code>");
    await sleep(500);
    expect(sessionRequests()).toBe(before);
  });

  it("a download Telegram fails is reported on the phone", async () => {
    await rig.telegram.setFault({ kind: "500", methods: ["getFile"], times: 1 });
    const sent = rig.telegram.sendFile(DEFAULT_CHAT_ID, { kind: "photo", bytes: JPEG, replyTo: done.messageId });
    const refusal = await rig.telegram.waitForMessage((m) => m.replyToMessageId === sent.messageId, { what: "the refusal" });
    expect(refusal.text).toContain("could not be downloaded from Telegram (Telegram 500: Internal Server Error)");
  });

  it("a photo that is not a reply to a session's message is not sent, and the phone says how to send it", async () => {
    const before = sessionRequests();
    const sent = rig.telegram.sendFile(DEFAULT_CHAT_ID, { kind: "photo", bytes: JPEG, caption: "for whom?" });
    const refusal = await rig.telegram.waitForMessage((m) => m.replyToMessageId === sent.messageId, { what: "the hint" });
    expect(refusal.text).toContain("reply with the photo or file to a Hermes message");
    expect(rig.telegram.calls.filter((c) => c.method === "getFile" && c.payload.file_id === sent.fileId)).toEqual([]);
    expect(sessionRequests()).toBe(before);
  });

  it("a stranger's photo in the chat is never downloaded, and gets no answer", async () => {
    const before = sessionRequests();
    const downloads = rig.telegram.downloads.length;
    const sent = rig.telegram.sendFile(DEFAULT_CHAT_ID, { kind: "photo", bytes: JPEG, caption: "run rm -rf", replyTo: done.messageId, from: STRANGER });
    // A message sent after it is handled, so the stranger's update was seen by then.
    const probe = rig.telegram.sendFile(DEFAULT_CHAT_ID, { kind: "photo", bytes: JPEG, caption: "probe" });
    await rig.telegram.waitForMessage((m) => m.replyToMessageId === probe.messageId, { what: "the answer to the probe" });
    expect(rig.telegram.calls.filter((c) => c.method === "getFile" && c.payload.file_id === sent.fileId)).toEqual([]);
    expect(rig.telegram.downloads).toHaveLength(downloads);
    expect(repliesTo(sent.messageId)).toEqual([]);
    expect(reactedTo(sent.messageId)).toBe(false);
    expect(sessionRequests()).toBe(before);
  });
});
