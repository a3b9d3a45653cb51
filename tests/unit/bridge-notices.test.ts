import { describe, expect, it, vi } from "vitest";
import type { HermesEvent } from "../../lib/hermes-events.ts";
import { CHAT, DIRECTORY, OWNER, question, request, setup } from "../support/bridge-rig.ts";
import { runToQuiet } from "../support/run-to-quiet.ts";
import { parseTelegramHtml } from "../support/fake-telegram.ts";

const quick = { level: "all" as const, doneAfterMs: 0 };

function runSession(emit: (event: HermesEvent) => void, text: string, sessionID = "ses_1") {
  emit({ type: "session.status", sessionID, status: "busy" });
  emit({ type: "message.role", sessionID, messageID: `msg_${text.length}`, role: "assistant" });
  emit({ type: "message.text", sessionID, messageID: `msg_${text.length}`, partID: "prt_1", text });
  emit({ type: "session.idle", sessionID });
}

describe("Bridge: run notices and talking back", () => {
  it("sends Done with the session title, the project and the last text (HTML-escaped)", async () => {
    const { telegram, bridge } = setup({ notices: quick });
    const emit = (event: HermesEvent) => bridge.handleEvent(DIRECTORY, event);
    emit({ type: "session.upserted", info: { id: "ses_1", title: "Fix <login>" } });
    runSession(emit, "All tests pass & the PR is ready.");
    const done = await vi.waitFor(() => telegram.messages.find((m) => m.text.includes("<b>Done</b>")) ?? Promise.reject(new Error("no notice")));
    expect(done.text).toContain("Fix &lt;login&gt;");
    expect(done.text).toContain("<code>project</code>");
    expect(done.text).toContain("All tests pass &amp; the PR is ready.");
    expect(done.text).toContain("Reply to this message");
  });

  it("a reply to a notice becomes the session's next prompt, with a quiet 👍", async () => {
    const { telegram, opencode, bridge, say } = setup({ notices: quick });
    const emit = (event: HermesEvent) => bridge.handleEvent(DIRECTORY, event);
    runSession(emit, "done");
    const done = await vi.waitFor(() => telegram.messages.find((m) => m.text.includes("<b>Done</b>")) ?? Promise.reject(new Error("no notice")));
    await say("now write the docs", done.messageId);
    await vi.waitFor(() =>
      expect(opencode.posts).toEqual([
        { url: "/session/{sessionID}/prompt_async", path: { sessionID: "ses_1" }, body: { parts: [{ type: "text", text: "now write the docs" }] } },
      ]),
    );
    await vi.waitFor(() => expect(telegram.reactions).toHaveLength(1));
    expect(telegram.reactions[0]).toMatchObject({ chatId: CHAT, emoji: "👍" });
  });

  it("a reply to a question's message also reaches its session: a busy session holds it in the queue and gets it when the run ends", async () => {
    const { telegram, opencode, bridge, ask, say } = setup();
    bridge.handleEvent(DIRECTORY, { type: "session.status", sessionID: "ses_1", status: "busy" });
    const message = await ask(request([question()]));
    await say("also check the README", message.messageId);
    await vi.waitFor(() => expect(telegram.messages.some((m) => m.text.includes("in the queue"))).toBe(true));
    expect(opencode.posts.map((post) => post.url)).not.toContain("/session/{sessionID}/prompt_async");
    bridge.handleEvent(DIRECTORY, { type: "session.idle", sessionID: "ses_1" });
    await vi.waitFor(() => expect(opencode.posts.map((post) => post.url)).toContain("/session/{sessionID}/prompt_async"));
  });

  it("a message that cannot be delivered is never lost silently: it is quoted back", async () => {
    const { telegram, opencode, bridge, say } = setup({ notices: quick });
    const emit = (event: HermesEvent) => bridge.handleEvent(DIRECTORY, event);
    runSession(emit, "done");
    const done = await vi.waitFor(() => telegram.messages.find((m) => m.text.includes("<b>Done</b>")) ?? Promise.reject(new Error("no notice")));
    opencode.replyStatus = 500;
    await say("deploy <it> now", done.messageId);
    const failure = await vi.waitFor(() => telegram.messages.find((m) => m.text.includes("Not sent to the agent")) ?? Promise.reject(new Error("no failure")));
    expect(failure.text).toContain("deploy &lt;it&gt; now");
  });

  it("sends Failed for an error, nothing for Esc, and one retry notice per run", async () => {
    const { telegram, bridge } = setup({ notices: quick });
    const emit = (event: HermesEvent) => bridge.handleEvent(DIRECTORY, event);
    emit({ type: "session.status", sessionID: "ses_1", status: "busy" });
    emit({ type: "session.error", sessionID: "ses_1", name: "MessageAbortedError", message: "aborted" });
    emit({ type: "session.idle", sessionID: "ses_1" });
    emit({ type: "session.status", sessionID: "ses_1", status: "busy" });
    for (const attempt of [1, 2, 3]) emit({ type: "session.status", sessionID: "ses_1", status: "retry", attempt, message: "429 from provider" });
    emit({ type: "session.error", sessionID: "ses_1", name: "APIError", message: "quota <exceeded>" });
    emit({ type: "session.idle", sessionID: "ses_1" });
    await vi.waitFor(() => expect(telegram.messages).toHaveLength(2));
    expect(telegram.messages[0]!.text).toContain("keeps retrying");
    expect(telegram.messages[1]!.text).toContain("<b>Failed</b>: APIError");
    expect(telegram.messages[1]!.text).toContain("quota &lt;exceeded&gt;");
  });

  it("ignores replies from strangers to a notice", async () => {
    const { telegram, opencode, bridge, say } = setup({ notices: quick, allowedUsers: [OWNER] });
    runSession((event) => bridge.handleEvent(DIRECTORY, event), "done");
    const done = await vi.waitFor(() => telegram.messages.find((m) => m.text.includes("<b>Done</b>")) ?? Promise.reject(new Error("no notice")));
    await runToQuiet(() => say("rm -rf /", done.messageId, 666));
    expect(opencode.posts).toEqual([]);
  });
});

describe("a long instruction that could not be delivered", () => {
  it("is quoted as far as fits in 4096 (emoji count double) and sent back in full as a file", async () => {
    const { telegram, bridge, opencode, say } = setup({ notices: { level: "all", doneAfterMs: 0 } });
    bridge.handleEvent(DIRECTORY, { type: "session.status", sessionID: "ses_1", status: "busy" });
    bridge.handleEvent(DIRECTORY, { type: "session.idle", sessionID: "ses_1" });
    const done = await vi.waitFor(() => telegram.messages.find((m) => m.text.includes("<b>Done</b>")) ?? Promise.reject(new Error("no notice")));
    opencode.replyStatus = 500;
    const long = `${"🚀 deploy <all> & ".repeat(400)}THE END`;
    await say(long, done.messageId);
    const failure = await vi.waitFor(() => telegram.messages.find((m) => m.text.includes("Not sent to the agent")) ?? Promise.reject(new Error("no failure")));
    const parsed = parseTelegramHtml(failure.text);
    if (!parsed.ok) throw new Error(parsed.error);
    expect(parsed.plain.length).toBeLessThanOrEqual(4096);
    expect(parsed.plain.length).toBeGreaterThan(3800);
    expect(parsed.plain).toContain("🚀 deploy <all> & 🚀");
    expect(parsed.plain).toContain("message.txt");
    const file = await vi.waitFor(() => telegram.documents.find((d) => d.filename === "message.txt") ?? Promise.reject(new Error("no file")));
    expect(file.content).toBe(long);
  });
});
