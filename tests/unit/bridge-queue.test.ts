// The queue from the phone (issue 53, lib/bridge/runs/queue-control.ts) on the in-memory rig: a
// busy session's messages are held (OpenCode gets nothing), listed by /queue oldest first, Remove
// drops one for good, the run's end sends the first, Send now aborts the run and sends that one
// next; a stranger's /queue and taps change nothing.
import { describe, expect, it, vi } from "vitest";
import type { HermesEvent } from "../../lib/hermes-events.ts";
import { DIRECTORY, OWNER, question, request, setup } from "../support/bridge-rig.ts";
import { runToQuiet } from "../support/run-to-quiet.ts";

const quick = { level: "all" as const, doneAfterMs: 0 };
const STRANGER = 666;

function busyRig(options: { allowedUsers?: number[] } = {}) {
  const rig = setup({ notices: quick, ...options });
  const emit = (event: HermesEvent) => rig.bridge.handleEvent(DIRECTORY, event);
  emit({ type: "session.status", sessionID: "ses_1", status: "busy" });
  emit({ type: "message.role", sessionID: "ses_1", messageID: "msg_a", role: "assistant" });
  emit({ type: "message.text", sessionID: "ses_1", messageID: "msg_a", partID: "prt_1", text: "working" });
  return { ...rig, emit };
}

const prompts = (rig: ReturnType<typeof setup>) =>
  rig.opencode.posts.filter((post) => post.url === "/session/{sessionID}/prompt_async").map((post) => (post.body as any).parts[0].text);

/** A Hermes message of the session the phone can reply to: the queued notices reply to the user's message. */
async function sessionMessage(rig: ReturnType<typeof busyRig>) {
  const message = await rig.ask(request([question()]));
  return message.messageId;
}

describe("Bridge: the queue", () => {
  it("two messages to a busy session are held, each told its place; /queue lists them oldest first; the run's end sends the first, the next run's end the second", async () => {
    const rig = busyRig();
    const anchor = await sessionMessage(rig);
    await rig.say("first: also the README", anchor);
    await rig.say("second: then the changelog", anchor);
    const notices = await vi.waitFor(() => {
      const found = rig.telegram.messages.filter((m) => m.text.includes("in the queue"));
      return found.length === 2 ? found : Promise.reject(new Error("no notices"));
    });
    expect(notices[0]!.text).toContain("<b>#1</b>");
    expect(notices[1]!.text).toContain("<b>#2</b>");
    expect(notices[0]!.keyboard.flat().map((b) => b.text)).toEqual(["✖ Remove", "⏩ Send now"]);
    expect(prompts(rig)).toEqual([]);
    await rig.say("/queue");
    const list = await vi.waitFor(() => rig.telegram.messages.find((m) => m.text.includes("2 waiting")) ?? Promise.reject(new Error("no list")));
    expect(list.text.indexOf("first: also")).toBeLessThan(list.text.indexOf("second: then"));
    expect(list.text).toContain("U,");
    expect(list.keyboard.map((row) => row.map((b) => b.text))).toEqual([
      ["✖ Remove 1", "⏩ Send 1 now"],
      ["✖ Remove 2", "⏩ Send 2 now"],
    ]);
    rig.emit({ type: "session.idle", sessionID: "ses_1" });
    await vi.waitFor(() => expect(prompts(rig)).toEqual(["first: also the README"]));
    await vi.waitFor(() => expect(notices[0]!.text).toContain("Sent to the agent"));
    // A second idle of the same run (1.x says both status idle and idle) sends nothing more.
    await runToQuiet(() => rig.emit({ type: "session.status", sessionID: "ses_1", status: "idle" }));
    expect(prompts(rig)).toEqual(["first: also the README"]);
    rig.emit({ type: "session.status", sessionID: "ses_1", status: "busy" });
    rig.emit({ type: "session.idle", sessionID: "ses_1" });
    await vi.waitFor(() => expect(prompts(rig)).toEqual(["first: also the README", "second: then the changelog"]));
  });

  it("Remove (on the list or the notice) drops a message for good: the run's end never sends it", async () => {
    const rig = busyRig();
    const anchor = await sessionMessage(rig);
    await rig.say("keep this one", anchor);
    await rig.say("drop this one", anchor);
    await vi.waitFor(() => expect(rig.telegram.messages.filter((m) => m.text.includes("in the queue"))).toHaveLength(2));
    await rig.say("/queue");
    const list = await vi.waitFor(() => rig.telegram.messages.find((m) => m.text.includes("2 waiting")) ?? Promise.reject(new Error("no list")));
    await rig.tap(list, "✖ Remove 2");
    await vi.waitFor(() => expect(list.text).toContain("1 waiting"));
    expect(list.text).not.toContain("drop this one");
    const dropped = rig.telegram.messages.find((m) => m.text.includes("Removed, never sent"));
    expect(dropped?.text).toContain("drop this one");
    rig.emit({ type: "session.idle", sessionID: "ses_1" });
    await vi.waitFor(() => expect(prompts(rig)).toEqual(["keep this one"]));
    rig.emit({ type: "session.status", sessionID: "ses_1", status: "busy" });
    await runToQuiet(() => rig.emit({ type: "session.idle", sessionID: "ses_1" }));
    expect(prompts(rig)).toEqual(["keep this one"]);
  });

  it("Send now asks first (red), then aborts the run as Stop does; the message goes first when it ends", async () => {
    const rig = busyRig();
    const anchor = await sessionMessage(rig);
    await rig.say("older one", anchor);
    await rig.say("urgent one", anchor);
    const notices = await vi.waitFor(() => {
      const found = rig.telegram.messages.filter((m) => m.text.includes("in the queue"));
      return found.length === 2 ? found : Promise.reject(new Error("no notices"));
    });
    const urgent = notices[1]!;
    await rig.tap(urgent, "⏩ Send now");
    await vi.waitFor(() => expect(urgent.text).toContain("Stop the current run"));
    expect(urgent.keyboard.flat().find((b) => b.text.includes("Stop the run"))?.style).toBe("danger");
    expect(rig.opencode.posts.some((post) => post.url.includes("abort"))).toBe(false);
    await rig.tap(urgent, "⏩ Stop the run and send");
    await vi.waitFor(() => expect(rig.opencode.posts.some((post) => post.url === "/session/{sessionID}/abort")).toBe(true));
    expect(prompts(rig)).toEqual([]);
    rig.emit({ type: "session.error", sessionID: "ses_1", name: "MessageAbortedError", message: "aborted" });
    rig.emit({ type: "session.idle", sessionID: "ses_1" });
    await vi.waitFor(() => expect(prompts(rig)).toEqual(["urgent one"]));
    rig.emit({ type: "session.status", sessionID: "ses_1", status: "busy" });
    rig.emit({ type: "session.idle", sessionID: "ses_1" });
    await vi.waitFor(() => expect(prompts(rig)).toEqual(["urgent one", "older one"]));
  });

  it("Back on the confirmation shows the notice again, with its place", async () => {
    const rig = busyRig();
    const anchor = await sessionMessage(rig);
    await rig.say("wait for it", anchor);
    const notice = await vi.waitFor(() => rig.telegram.messages.find((m) => m.text.includes("in the queue")) ?? Promise.reject(new Error("no notice")));
    await rig.tap(notice, "⏩ Send now");
    await vi.waitFor(() => expect(notice.text).toContain("Stop the current run"));
    await rig.tap(notice, "↩ Back");
    await vi.waitFor(() => expect(notice.text).toContain("<b>#1</b>"));
    expect(rig.opencode.posts.some((post) => post.url.includes("abort"))).toBe(false);
  });

  it("/queue with nothing waiting says so", async () => {
    const rig = setup({ notices: quick });
    await rig.say("/queue");
    await vi.waitFor(() => expect(rig.telegram.messages.some((m) => m.text.includes("Nothing is waiting"))).toBe(true));
  });

  it("a stranger's /queue and taps change nothing", async () => {
    const rig = busyRig({ allowedUsers: [OWNER] });
    const anchor = await sessionMessage(rig);
    await rig.say("mine", anchor);
    const notice = await vi.waitFor(() => rig.telegram.messages.find((m) => m.text.includes("in the queue")) ?? Promise.reject(new Error("no notice")));
    const before = rig.telegram.messages.length;
    await runToQuiet(() => rig.say("/queue", undefined, STRANGER));
    await runToQuiet(() => rig.tap(notice, "✖ Remove", STRANGER));
    await runToQuiet(() => rig.tap(notice, "⏩ Send now", STRANGER));
    expect(rig.telegram.messages.length).toBe(before);
    expect(notice.text).toContain("in the queue");
    expect(notice.edits).toBe(0);
    // A stranger's reply to the session is not queued either.
    await runToQuiet(() => rig.say("theirs", anchor, STRANGER));
    rig.emit({ type: "session.idle", sessionID: "ses_1" });
    await vi.waitFor(() => expect(prompts(rig)).toEqual(["mine"]));
    expect(rig.opencode.posts.some((post) => post.url.includes("abort"))).toBe(false);
  });
});
