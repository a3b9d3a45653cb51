// Stop from the phone, on the bridge with an in-memory Telegram and a fake OpenCode: a Stop button
// on prompts and on the notice of a run the phone started, a red confirmation, the abort request,
// what the phone shows after, no "Done" for a stopped run, /stop with its picker, and who may stop.
import { describe, expect, it, vi } from "vitest";
import type { HermesEvent } from "../../lib/hermes-events.ts";
import { decodeCallback } from "../../lib/telegram/codec.ts";
import { CHAT, DIRECTORY, question, request, setup } from "../support/bridge-rig.ts";
import { runToQuiet } from "../support/run-to-quiet.ts";

const quick = { level: "all" as const, doneAfterMs: 0 };
const abortPosts = (posts: Array<{ url: string; path?: Record<string, string> }>) =>
  posts.filter((post) => post.url === "/session/{sessionID}/abort").map((post) => post.path?.sessionID);

describe("Bridge: stop from the phone", () => {
  it("Stop on a prompt asks for a red confirmation; Confirm stop aborts the run, the phone says so, and no Done follows", async () => {
    const { telegram, opencode, bridge, ask, tap } = setup({ notices: quick });
    const emit = (event: HermesEvent) => bridge.handleEvent(DIRECTORY, event);
    emit({ type: "session.upserted", info: { id: "ses_1", title: "Refactor <auth>" } });
    emit({ type: "session.status", sessionID: "ses_1", status: "busy" });
    const message = await ask(request([question()]));
    expect(message.keyboard.at(-1)!.map((b) => b.text)).toEqual(["⏹ Stop"]);
    expect(decodeCallback(message.keyboard.at(-1)![0]!.callback_data)?.action).toBe("stop");

    await tap(message, "⏹ Stop");
    const confirm = await vi.waitFor(() => telegram.messages.find((m) => m.text.includes("Stop this run?")) ?? Promise.reject(new Error("no confirmation")));
    expect(confirm.text).toContain("Refactor &lt;auth&gt;");
    expect(confirm.replyTo).toBe(message.messageId);
    expect(confirm.keyboard).toEqual([[expect.objectContaining({ text: "⏹ Confirm stop", style: "danger" })]]);
    expect(abortPosts(opencode.posts)).toEqual([]); // one tap never stops a run

    await tap(confirm, "⏹ Confirm stop");
    await vi.waitFor(() => expect(abortPosts(opencode.posts)).toEqual(["ses_1"]));
    await vi.waitFor(() => expect(confirm.text).toContain("Run stopped from Telegram"));
    expect(confirm.keyboard).toEqual([]);
    // OpenCode 1.1.53's order: idle first, the abort right after.
    await runToQuiet(() => {
      emit({ type: "session.idle", sessionID: "ses_1" });
      emit({ type: "session.error", sessionID: "ses_1", name: "MessageAbortedError", message: "Aborted" });
    });
    expect(telegram.messages.filter((m) => /<b>(Done|Failed)<\/b>/.test(m.text))).toEqual([]);
  });

  it("Stop on a sub-agent's question two levels down stops the whole run and closes that question too", async () => {
    const { telegram, opencode, bridge, ask, tap } = setup({ notices: quick });
    const emit = (event: HermesEvent) => bridge.handleEvent(DIRECTORY, event);
    emit({ type: "session.upserted", info: { id: "ses_1", title: "Main" } });
    emit({ type: "session.upserted", info: { id: "ses_child", title: "helper", parentID: "ses_1" } });
    emit({ type: "session.upserted", info: { id: "ses_grand", title: "helper's helper", parentID: "ses_child" } });
    emit({ type: "session.status", sessionID: "ses_1", status: "busy" });
    const asked = { ...request([question()]), sessionID: "ses_grand" };
    const message = await ask(asked);
    await tap(message, "⏹ Stop");
    const confirm = await vi.waitFor(() => telegram.messages.find((m) => m.text.includes("Stop this run?")) ?? Promise.reject(new Error("no confirmation")));
    await tap(confirm, "⏹ Confirm stop");
    await vi.waitFor(() => expect(abortPosts(opencode.posts)).toEqual(["ses_1"]));
    await vi.waitFor(() => expect(opencode.posts).toContainEqual({ url: "/question/{requestID}/reject", path: { requestID: asked.id } }));
  });

  it("a run started from the phone gets a Running notice with Stop, which turns into the confirmation in place", async () => {
    const { telegram, opencode, bridge, ask, say, tap } = setup({ notices: quick });
    const emit = (event: HermesEvent) => bridge.handleEvent(DIRECTORY, event);
    const message = await ask(request([question()]));
    await say("now run the tests", message.messageId);
    const running = await vi.waitFor(() => telegram.messages.find((m) => m.text.includes("<b>Running</b>")) ?? Promise.reject(new Error("no notice")));
    emit({ type: "session.status", sessionID: "ses_1", status: "busy" });
    await tap(running, "⏹ Stop");
    await vi.waitFor(() => expect(running.text).toContain("Stop this run?"));
    await tap(running, "⏹ Confirm stop");
    await vi.waitFor(() => expect(running.text).toContain("Run stopped from Telegram"));
    expect(abortPosts(opencode.posts)).toEqual(["ses_1"]);
  });

  it("a Stop on a run that already ended says so and stops nothing; the notice loses its button when the run ends", async () => {
    const { telegram, opencode, bridge, ask, say } = setup({ notices: quick });
    const emit = (event: HermesEvent) => bridge.handleEvent(DIRECTORY, event);
    const message = await ask(request([question()]));
    await say("go on", message.messageId);
    const running = await vi.waitFor(() => telegram.messages.find((m) => m.text.includes("<b>Running</b>")) ?? Promise.reject(new Error("no notice")));
    const data = telegram.button(running, "⏹ Stop").callback_data;
    emit({ type: "session.status", sessionID: "ses_1", status: "busy" });
    emit({ type: "session.idle", sessionID: "ses_1" });
    await vi.waitFor(() => expect(running.keyboard).toEqual([]));
    // A late tap (the phone still showed the button): answered, nothing stopped.
    await bridge.handleUpdate({
      update_id: 77,
      callback_query: {
        id: "late",
        from: { id: CHAT, first_name: "U" },
        data,
        message: { message_id: running.messageId, chat: { id: CHAT, type: "private" } },
      },
    });
    expect(telegram.callbackAnswers.find((a) => a.id === "late")).toMatchObject({ text: "That session is not running" });
    expect(running.keyboard).toEqual([]);
    expect(abortPosts(opencode.posts)).toEqual([]);
  });

  it("a tap from someone else is refused and stops nothing", async () => {
    const { telegram, opencode, bridge, ask, tap } = setup({ allowedUsers: [1001] });
    bridge.handleEvent(DIRECTORY, { type: "session.status", sessionID: "ses_1", status: "busy" });
    const message = await ask(request([question()]));
    await tap(message, "⏹ Stop");
    const confirm = await vi.waitFor(() => telegram.messages.find((m) => m.text.includes("Stop this run?")) ?? Promise.reject(new Error("no confirmation")));
    const id = await tap(confirm, "⏹ Confirm stop", 666);
    expect(telegram.callbackAnswers.find((a) => a.id === id)).toMatchObject({ text: "Not authorized", alert: true });
    expect(abortPosts(opencode.posts)).toEqual([]);
    expect(confirm.text).toContain("Stop this run?");
  });

  it("/stop: nothing running says so; one busy run gets its confirmation; several get a picker", async () => {
    const { telegram, opencode, bridge, say, tap } = setup();
    const emit = (event: HermesEvent) => bridge.handleEvent(DIRECTORY, event);
    await say("/stop");
    await vi.waitFor(() => expect(telegram.messages.some((m) => m.text === "Nothing is running.")).toBe(true));

    emit({ type: "session.upserted", info: { id: "ses_a", title: "Alpha" } });
    emit({ type: "session.status", sessionID: "ses_a", status: "busy" });
    await say("/stop");
    const single = await vi.waitFor(
      () => telegram.messages.find((m) => m.text.includes("Stop this run?") && m.text.includes("Alpha")) ?? Promise.reject(new Error("no confirmation")),
    );
    expect(single.keyboard.flat().map((b) => b.text)).toEqual(["⏹ Confirm stop"]);

    emit({ type: "session.upserted", info: { id: "ses_b", title: "Beta" } });
    emit({ type: "session.status", sessionID: "ses_b", status: "busy" });
    emit({ type: "session.upserted", info: { id: "ses_child", title: "helper", parentID: "ses_b" } });
    emit({ type: "session.status", sessionID: "ses_child", status: "busy" });
    await say("/stop");
    const picker = await vi.waitFor(() => telegram.messages.find((m) => m.text.includes("Which run should stop?")) ?? Promise.reject(new Error("no picker")));
    expect(
      picker.keyboard
        .flat()
        .map((b) => b.text)
        .sort(),
    ).toEqual(["⏹ project · Alpha", "⏹ project · Beta"]);
    await tap(picker, "⏹ project · Beta");
    await vi.waitFor(() => expect(picker.text).toContain("Stop this run?"));
    expect(picker.text).toContain("Beta");
    await tap(picker, "⏹ Confirm stop");
    await vi.waitFor(() => expect(abortPosts(opencode.posts)).toEqual(["ses_b"]));
    expect(telegram.messages.filter((m) => m.chatId === CHAT && m.text === "Nothing is running.")).toHaveLength(1);
  });

  it("when OpenCode refuses the abort, the phone says why and offers the confirmation again", async () => {
    const { telegram, opencode, bridge, say, tap } = setup();
    bridge.handleEvent(DIRECTORY, { type: "session.status", sessionID: "ses_1", status: "busy" });
    await say("/stop");
    const confirm = await vi.waitFor(() => telegram.messages.find((m) => m.text.includes("Stop this run?")) ?? Promise.reject(new Error("no confirmation")));
    opencode.replyStatus = 400;
    await tap(confirm, "⏹ Confirm stop");
    await vi.waitFor(() => expect(confirm.text).toContain("Could not stop the run"));
    expect(confirm.text).toContain("boom");
    expect(confirm.keyboard.flat().map((b) => b.text)).toEqual(["⏹ Confirm stop"]);
  });
});
