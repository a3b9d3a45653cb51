// Live progress on the bridge, with an in-memory Telegram (no pacing: when calls go out is the
// outbox's, tested in outbox.test.ts): one silent message per run, for a run the phone started as
// soon as it has something to show (or after 3 s) and after the Done threshold for others, edited as todos and steps change, never an edit
// that changes nothing, one last edit without Stop when the run ends, and off means the Running
// notice as before.
import { describe, expect, it, vi } from "vitest";
import type { HermesEvent } from "../../lib/hermes-events.ts";
import { DIRECTORY, question, request, setup } from "../support/bridge-rig.ts";
import type { MemoryMessage } from "../support/memory-telegram.ts";
import { runToQuiet } from "../support/run-to-quiet.ts";
import { Outbox, Priority } from "../../lib/telegram/wire/outbox.ts";

const quick = { level: "all" as const, doneAfterMs: 0 };
const todos = (...statuses: string[]): HermesEvent => ({
  type: "todo.updated",
  sessionID: "ses_1",
  todos: statuses.map((status, index) => ({ content: `Step <${index}>`, status })),
});
const bash = (callID: string, state: "running" | "completed", command?: string, sessionID = "ses_1"): HermesEvent => ({
  type: "tool.step",
  sessionID,
  step: { callID, tool: "bash", state, ...(command ? { input: { command } } : {}) },
});

async function phoneRun(progress: boolean) {
  const rig = setup({ notices: quick, progress });
  const emit = (event: HermesEvent) => rig.bridge.handleEvent(DIRECTORY, event);
  emit({ type: "session.upserted", info: { id: "ses_1", title: "Fix <auth>" } });
  const message = await rig.ask(request([question()]));
  emit({ type: "question.replied", sessionID: "ses_1", requestID: "x", answers: [] });
  await rig.say("now run the tests", message.messageId);
  // The 👍 on the user's message: the run is known as the phone's (before OpenCode says busy).
  await vi.waitFor(() => expect(rig.telegram.reactions).toHaveLength(1));
  return { ...rig, emit };
}

const progressOf = (messages: MemoryMessage[]) => messages.filter((m) => m.text.includes("<b>Running</b>") || m.text.includes("<b>Run "));
const liveOf = (telegram: { messages: MemoryMessage[] }) =>
  vi.waitFor(() => progressOf(telegram.messages)[0] ?? Promise.reject(new Error("no progress message")));

/** The phone's run gets going (its first step): its progress message goes out now. */
async function started(rig: Awaited<ReturnType<typeof phoneRun>>) {
  rig.emit({ type: "session.status", sessionID: "ses_1", status: "busy" });
  rig.emit(bash("c0", "running", "git status"));
  return liveOf(rig.telegram);
}

describe("Bridge: live progress", () => {
  it("the first sight of a running command is awaited (ahead of spare traffic, issue 50); what follows while it runs is spare", async () => {
    const update = vi.spyOn(Outbox.prototype, "update");
    try {
      const rig = await phoneRun(true);
      const live = await started(rig);
      const progressCalls = () => update.mock.calls.filter(([, key]) => String(key).startsWith("progress:")).map(([, , , priority]) => priority);
      await vi.waitFor(() => expect(live.text).toContain("git status"));
      const before = progressCalls().length;
      rig.emit(bash("c0", "completed"));
      rig.emit(bash("c1", "running", "sleep 8"));
      await vi.waitFor(() => expect(live.text).toContain("<code>sleep 8</code>"));
      // The todo list while `sleep 8` is already shown: spare again.
      rig.emit(todos("in_progress", "pending"));
      await vi.waitFor(() => expect(live.text).toContain("To do</b> 0/2"));
      rig.emit(bash("c2", "running", "npm test"));
      await vi.waitFor(() => expect(live.text).toContain("<code>npm test</code>"));
      expect(progressCalls().slice(before)).toEqual([Priority.Progress, Priority.Awaited, Priority.Progress, Priority.Awaited]);
      // A call shown while pending (no command yet) is spare, and not seen: its command's first sight is awaited.
      rig.emit(bash("c2", "completed"));
      await vi.waitFor(() => expect(live.text).not.toContain("▸ <b>bash</b> <code>npm test</code>"));
      const beforePending = progressCalls().length;
      rig.emit(bash("c3", "running"));
      await vi.waitFor(() => expect(live.text).toContain("▸ <b>bash</b>\n"));
      expect(progressCalls().slice(beforePending)).toEqual([Priority.Progress]);
      const pending = progressCalls().length;
      rig.emit(bash("c3", "running", "npm run build"));
      await vi.waitFor(() => expect(live.text).toContain("<code>npm run build</code>"));
      expect(progressCalls().slice(pending)).toEqual([Priority.Awaited]);
    } finally {
      update.mockRestore();
    }
  });

  it("a run the phone started: one silent message, with Stop, as soon as it has its todo list; the command shows as it changes; at the end one last line and Done", async () => {
    const { telegram, emit } = await phoneRun(true);
    emit({ type: "session.status", sessionID: "ses_1", status: "busy" });
    // The todo tool's own step is not worth a message: its list follows at once.
    await runToQuiet(() => emit({ type: "tool.step", sessionID: "ses_1", step: { callID: "t0", tool: "todowrite", state: "running" } }));
    expect(progressOf(telegram.messages)).toEqual([]);
    emit(todos("in_progress", "pending", "pending"));
    emit({ type: "tool.step", sessionID: "ses_1", step: { callID: "t0", state: "completed" } });
    const live = await liveOf(telegram);
    expect(live.silent).toBe(true);
    expect(live.replyTo).toBeDefined();
    expect(live.keyboard).toEqual([[expect.objectContaining({ text: "⏹ Stop" })]]);
    expect(live.text).toContain("Fix &lt;auth&gt;");
    // The first message already shows the todo list: no edit spent on it.
    expect(live.text).toContain("To do</b> 0/3");
    expect(live.text).toContain("🔄 Step &lt;0&gt;");
    expect(live.edits).toBe(0);
    emit(bash("c1", "running", "sleep 2 && echo <slow>"));
    await vi.waitFor(() => expect(live.text).toContain("<code>sleep 2 &amp;&amp; echo &lt;slow&gt;</code>"));
    emit(bash("c1", "completed"));
    emit(todos("completed", "completed", "in_progress"));
    await vi.waitFor(() => expect(live.text).toContain("To do</b> 2/3"));
    expect(live.text).not.toContain("▸");
    const before = live.edits;
    emit({ type: "session.idle", sessionID: "ses_1" });
    await vi.waitFor(() => expect(live.text).toContain("Run finished"));
    expect(live.keyboard).toEqual([]);
    expect(live.edits).toBe(before + 1);
    await vi.waitFor(() => expect(telegram.messages.some((m) => m.text.includes("<b>Done</b>"))).toBe(true));
    // No separate Running notice: the progress message is it.
    expect(progressOf(telegram.messages)).toHaveLength(1);
  });

  it("an event that changes nothing the phone shows makes no edit", async () => {
    const rig = await phoneRun(true);
    const { emit } = rig;
    const live = await started(rig);
    emit(bash("c1", "running", "make"));
    await vi.waitFor(() => expect(live.text).toContain("<code>make</code>"));
    const edits = live.edits;
    await runToQuiet(() => {
      for (let i = 0; i < 5; i++) emit(bash("c1", "running", "make"));
      emit({ type: "session.status", sessionID: "ses_1", status: "busy" });
    });
    expect(live.edits).toBe(edits);
  });

  it("a sub-agent's steps show in its root run's message, marked", async () => {
    const rig = await phoneRun(true);
    const { telegram, emit } = rig;
    const live = await started(rig);
    emit({ type: "session.upserted", info: { id: "ses_child", title: "helper", parentID: "ses_1" } });
    emit({
      type: "tool.step",
      sessionID: "ses_1",
      step: { callID: "t1", tool: "task", state: "running", input: { subagent_type: "general", description: "Find it" } },
    });
    await vi.waitFor(() => expect(live.text).toContain("<i>general</i>: Find it"));
    emit({ type: "session.status", sessionID: "ses_child", status: "busy" });
    emit(bash("c9", "running", "grep -r x", "ses_child"));
    await vi.waitFor(() => expect(live.text).toContain("↳ <b>bash</b> <code>grep -r x</code>"));
    emit({ type: "session.idle", sessionID: "ses_child" });
    expect(progressOf(telegram.messages)).toHaveLength(1);
    expect(live.keyboard).not.toEqual([]);
  });

  it.each([
    ["1.18", ["abort", "idle"]],
    ["1.1.53", ["idle", "abort"]],
  ])("Stop on the progress message asks for the confirmation in a reply; the run ends as stopped, in OpenCode %s's order", async (_, order) => {
    const rig = await phoneRun(true);
    const { telegram, emit, tap, opencode } = rig;
    const live = await started(rig);
    await tap(live, "⏹ Stop");
    const confirm = await vi.waitFor(() => telegram.messages.find((m) => m.text.includes("Stop this run?")) ?? Promise.reject(new Error("no confirmation")));
    expect(confirm.replyTo).toBe(live.messageId);
    await tap(confirm, "⏹ Confirm stop");
    await vi.waitFor(() => expect(opencode.posts.some((post) => post.url === "/session/{sessionID}/abort")).toBe(true));
    for (const step of order)
      emit(
        step === "idle"
          ? { type: "session.idle", sessionID: "ses_1" }
          : { type: "session.error", sessionID: "ses_1", name: "MessageAbortedError", message: "" },
      );
    await vi.waitFor(() => expect(live.text).toContain("Run stopped"));
    expect(live.keyboard).toEqual([]);
  });

  it("a run the phone started that shows nothing yet (one long first answer) gets its message after 3 s, not before", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const { telegram, emit } = await phoneRun(true);
      emit({ type: "session.status", sessionID: "ses_1", status: "busy" });
      await vi.advanceTimersByTimeAsync(2_500);
      expect(progressOf(telegram.messages)).toEqual([]);
      await vi.advanceTimersByTimeAsync(1_000);
      const live = await liveOf(telegram);
      expect(live.text).toContain("0 steps");
      expect(live.keyboard).toEqual([[expect.objectContaining({ text: "⏹ Stop" })]]);
    } finally {
      vi.useRealTimers();
    }
  });

  it("a run the phone started that ends before it shows anything gets no progress message: Done says it", async () => {
    const { telegram, emit } = await phoneRun(true);
    emit({ type: "session.status", sessionID: "ses_1", status: "busy" });
    emit({ type: "session.idle", sessionID: "ses_1" });
    await vi.waitFor(() => expect(telegram.messages.some((m) => m.text.includes("<b>Done</b>"))).toBe(true));
    await runToQuiet(() => undefined);
    expect(progressOf(telegram.messages)).toEqual([]);
  });

  it("a run not started from the phone gets its message only once it has worked longer than the Done threshold", async () => {
    const { telegram, bridge } = setup({ notices: { level: "all", doneAfterMs: 60_000 }, progress: true });
    const emit = (event: HermesEvent) => bridge.handleEvent(DIRECTORY, event);
    await runToQuiet(async () => {
      emit({ type: "session.status", sessionID: "ses_1", status: "busy" });
      emit(todos("in_progress"));
      expect(progressOf(telegram.messages)).toEqual([]);
      await vi.advanceTimersByTimeAsync(30_000);
      expect(progressOf(telegram.messages)).toEqual([]);
      await vi.advanceTimersByTimeAsync(31_000);
      expect(progressOf(telegram.messages)).toHaveLength(1);
    });
    const live = progressOf(telegram.messages)[0]!;
    expect(live.silent).toBe(true);
    expect(live.text).toContain("To do</b> 0/1");
    emit({ type: "session.idle", sessionID: "ses_1" });
    await vi.waitFor(() => expect(live.keyboard).toEqual([]));
  });

  it("a message from the phone queued behind a run that has no message yet: the queued notice, and the run's progress at once", async () => {
    const rig = setup({ notices: { level: "all", doneAfterMs: 60_000 }, progress: true });
    const emit = (event: HermesEvent) => rig.bridge.handleEvent(DIRECTORY, event);
    const message = await rig.ask(request([question()]));
    emit({ type: "session.status", sessionID: "ses_1", status: "busy" });
    emit(bash("c1", "running", "make all"));
    await rig.say("and then the docs", message.messageId);
    await vi.waitFor(() => expect(rig.telegram.messages.some((m) => m.text.includes("in the queue"))).toBe(true));
    const live = await vi.waitFor(() => progressOf(rig.telegram.messages)[0] ?? Promise.reject(new Error("no progress message")));
    expect(live.text).toContain("<code>make all</code>");
    expect(progressOf(rig.telegram.messages)).toHaveLength(1);
  });

  it("a short run that is not the phone's never gets a message", async () => {
    const { telegram, bridge } = setup({ notices: { level: "all", doneAfterMs: 60_000 }, progress: true });
    const emit = (event: HermesEvent) => bridge.handleEvent(DIRECTORY, event);
    await runToQuiet(() => {
      emit({ type: "session.status", sessionID: "ses_1", status: "busy" });
      emit(bash("c1", "running", "ls"));
      emit({ type: "session.idle", sessionID: "ses_1" });
    });
    expect(telegram.messages).toEqual([]);
  });

  it("off: no progress message; the phone's run gets the Running notice as before", async () => {
    const { telegram, emit } = await phoneRun(false);
    const running = await vi.waitFor(() => telegram.messages.find((m) => m.text.includes("<b>Running</b>")) ?? Promise.reject(new Error("no notice")));
    emit({ type: "session.status", sessionID: "ses_1", status: "busy" });
    await runToQuiet(() => emit(todos("in_progress")));
    expect(running.text).not.toContain("To do");
    expect(running.edits).toBe(0);
    expect(running.silent).toBe(false);
  });
});
