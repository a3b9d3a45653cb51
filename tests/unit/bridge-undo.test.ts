// Undo from the phone, on the bridge with an in-memory Telegram and a fake OpenCode 1.x: ⏪ Undo on
// the Done notice of a run that changed files, the red confirmation naming them, the revert to the
// run's first user message, ↪ Redo until the next prompt, /undo as a reply, and every refusal
// (busy, a newer run, OpenCode's, no git, a stranger) asking nothing of OpenCode that would change files.
import { describe, expect, it, vi } from "vitest";
import type { FileChange, HermesEvent } from "../../lib/hermes-events.ts";
import { decodeCallback } from "../../lib/telegram/codec.ts";
import { DIRECTORY, OWNER, setup } from "../support/bridge-rig.ts";
import type { MemoryMessage } from "../support/memory-telegram.ts";

const quick = { level: "all" as const, doneAfterMs: 0 };
const CHANGES: FileChange[] = [
  { file: "src/app.ts", additions: 3, deletions: 2, status: "modified" },
  { file: "src/<new>.ts", additions: 4, deletions: 0, status: "added" },
];
const REVERTED = {
  status: 200,
  data: {
    id: "ses_1",
    revert: { messageID: "msg_u1", snapshot: "abc123", diff: "diff --git a/src/app.ts b/src/app.ts\n-x\ndiff --git a/src/<new>.ts b/src/<new>.ts\n-y\n" },
  },
};
const reverts = (posts: Array<{ url: string; path?: Record<string, string>; body?: unknown }>) =>
  posts.filter((post) => post.url.includes("revert")).map((post) => [post.url, post.path?.sessionID, post.body]);

function rig(options: { allowedUsers?: number[] } = {}) {
  const harness = setup({ notices: quick, ...options });
  const emit = (event: HermesEvent) => harness.bridge.handleEvent(DIRECTORY, event);
  /** A run of ses_1 from user message `messageID` that changed `changes`, up to its Done notice. */
  const run = async (messageID: string, changes: FileChange[] = CHANGES, marker = messageID): Promise<MemoryMessage> => {
    emit({ type: "session.status", sessionID: "ses_1", status: "busy" });
    emit({ type: "message.role", sessionID: "ses_1", messageID, role: "user", changes });
    emit({ type: "message.role", sessionID: "ses_1", messageID: `${messageID}-a`, role: "assistant" });
    emit({ type: "message.text", sessionID: "ses_1", messageID: `${messageID}-a`, partID: "p", text: `answer ${marker}` });
    emit({ type: "session.idle", sessionID: "ses_1" });
    return vi.waitFor(
      () =>
        harness.telegram.messages.find((m) => m.text.includes("<b>Done</b>") && m.text.includes(`answer ${marker}`)) ?? Promise.reject(new Error("no Done")),
    );
  };
  const find = (text: string) => vi.waitFor(() => harness.telegram.messages.find((m) => m.text.includes(text)) ?? Promise.reject(new Error(`no "${text}"`)));
  return { ...harness, emit, run, find };
}

describe("Bridge: undo from the phone", () => {
  it("Undo asks for a red confirmation naming the files; Confirm reverts to the run's first message; Redo puts it back", async () => {
    const { telegram, opencode, emit, run, find, tap } = rig();
    emit({ type: "session.upserted", info: { id: "ses_1", title: "Refactor" } });
    const notice = await run("msg_u1");
    expect(notice.keyboard).toEqual([[expect.objectContaining({ text: "⏪ Undo" }), expect.objectContaining({ text: "⑂ Fork" })]]);
    expect(decodeCallback(notice.keyboard[0]![0]!.callback_data)?.action).toBe("undo");

    await tap(notice, "⏪ Undo");
    const confirm = await find("Undo this run?");
    expect(confirm.replyTo).toBe(notice.messageId);
    expect(confirm.text).toContain("<code>src/app.ts</code>\n<code>src/&lt;new&gt;.ts</code> (new: removed)");
    expect(confirm.text).toContain("Refactor");
    expect(confirm.keyboard).toEqual([[expect.objectContaining({ text: "⏪ Confirm undo", style: "danger" })]]);
    expect(reverts(opencode.posts)).toEqual([]); // one tap never changes files

    opencode.answers.set("/session/{sessionID}/revert", REVERTED);
    await tap(confirm, "⏪ Confirm undo");
    await vi.waitFor(() => expect(confirm.text).toContain("Undone: 2 files restored"));
    expect(reverts(opencode.posts)).toEqual([["/session/{sessionID}/revert", "ses_1", { messageID: "msg_u1" }]]);
    expect(confirm.keyboard.flat().map((b) => b.text)).toEqual(["↪ Redo"]);

    await tap(confirm, "↪ Redo");
    await vi.waitFor(() => expect(confirm.text).toContain("Redone"));
    expect(reverts(opencode.posts).at(-1)).toEqual(["/session/{sessionID}/unrevert", "ses_1", undefined]);
    expect(confirm.keyboard.flat().map((b) => b.text)).toEqual(["⏪ Undo"]);
    expect(telegram.callbackAnswers.map((a) => a.text)).toEqual(["Tap Confirm undo to undo the run", "Undoing the run…", "Putting the run's changes back…"]);
  });

  it("the session's next prompt makes the undo final: Redo goes, and a late Redo tap asks nothing of OpenCode", async () => {
    const { telegram, opencode, emit, run, find, tap } = rig();
    const notice = await run("msg_u1");
    opencode.answers.set("/session/{sessionID}/revert", REVERTED);
    await tap(notice, "⏪ Undo");
    const confirm = await find("Undo this run?");
    const redo = () => ({ ...confirm, keyboard: confirm.keyboard.map((row) => [...row]) });
    await tap(confirm, "⏪ Confirm undo");
    await vi.waitFor(() => expect(confirm.text).toContain("Undone"));
    const stale = redo();
    emit({ type: "message.role", sessionID: "ses_1", messageID: "msg_u2", role: "user" });
    await vi.waitFor(() => expect(confirm.text).toContain("the undo is final"));
    expect(confirm.keyboard).toEqual([]);
    await tap(stale, "↪ Redo");
    await vi.waitFor(() => expect(telegram.callbackAnswers.at(-1)).toMatchObject({ text: expect.stringContaining("the undo is final"), alert: true }));
    expect(reverts(opencode.posts).map(([url]) => url)).toEqual(["/session/{sessionID}/revert"]);
  });

  it("refuses while the session works, and for an older run once a newer one exists, asking nothing of OpenCode", async () => {
    const { telegram, opencode, emit, run, tap } = rig();
    const first = await run("msg_u1");
    emit({ type: "session.status", sessionID: "ses_1", status: "busy" });
    emit({ type: "message.role", sessionID: "ses_1", messageID: "msg_u2", role: "user", changes: [CHANGES[0]!] });
    await tap(first, "⏪ Undo");
    expect(telegram.callbackAnswers.at(-1)).toMatchObject({ text: expect.stringContaining("The session is working"), alert: true });
    emit({ type: "session.idle", sessionID: "ses_1" });
    await tap(first, "⏪ Undo");
    expect(telegram.callbackAnswers.at(-1)).toMatchObject({ text: expect.stringContaining("A newer run exists"), alert: true });
    expect(telegram.messages.filter((m) => m.text.includes("Undo this run?"))).toEqual([]);
    expect(reverts(opencode.posts)).toEqual([]);
  });

  it("/undo while the session works says so, even before the run changed anything", async () => {
    const { telegram, opencode, emit, run, find, say } = rig();
    const notice = await run("msg_u1");
    emit({ type: "session.status", sessionID: "ses_1", status: "busy" });
    emit({ type: "message.role", sessionID: "ses_1", messageID: "msg_u2", role: "user" });
    await say("/undo", notice.messageId);
    await find("The session is working");
    expect(telegram.messages.filter((m) => m.text.includes("Nothing to undo") || m.text.includes("Undo this run?"))).toEqual([]);
    expect(reverts(opencode.posts)).toEqual([]);
  });

  it("without git OpenCode restores nothing: the revert is taken back and the phone says why", async () => {
    const { opencode, run, find, tap } = rig();
    const notice = await run("msg_u1");
    opencode.answers.set("/session/{sessionID}/revert", { status: 200, data: { id: "ses_1", revert: { messageID: "msg_u1" } } });
    await tap(notice, "⏪ Undo");
    const confirm = await find("Undo this run?");
    await tap(confirm, "⏪ Confirm undo");
    await vi.waitFor(() => expect(confirm.text).toContain("Nothing undone"));
    expect(confirm.text).toContain("git project");
    expect(confirm.keyboard).toEqual([]);
    expect(reverts(opencode.posts).map(([url]) => url)).toEqual(["/session/{sessionID}/revert", "/session/{sessionID}/unrevert"]);
  });

  it("OpenCode's refusal is shown with Confirm again; the run stays undoable", async () => {
    const { opencode, run, find, tap } = rig();
    const notice = await run("msg_u1");
    opencode.answers.set("/session/{sessionID}/revert", { status: 409, data: { _tag: "SessionBusyError", message: "Session is busy: ses_1" } });
    await tap(notice, "⏪ Undo");
    const confirm = await find("Undo this run?");
    await tap(confirm, "⏪ Confirm undo");
    await vi.waitFor(() => expect(confirm.text).toContain("Could not undo the run"));
    expect(confirm.text).toContain("Session is busy: ses_1");
    expect(confirm.keyboard.flat().map((b) => b.text)).toEqual(["⏪ Confirm undo"]);
    opencode.answers.set("/session/{sessionID}/revert", REVERTED);
    await tap(confirm, "⏪ Confirm undo");
    await vi.waitFor(() => expect(confirm.text).toContain("Undone: 2 files restored"));
  });

  it("/undo in reply to a session's message offers its last run; bare /undo says how; a run with no changes has nothing to undo", async () => {
    const { telegram, run, find, say } = rig();
    const notice = await run("msg_u1");
    await say("/undo", notice.messageId);
    const confirm = await find("Undo this run?");
    expect(confirm.keyboard.flat().map((b) => b.text)).toEqual(["⏪ Confirm undo"]);
    await say("/undo");
    await find("Reply <code>/undo</code> to a session's message");
    const quiet = await run("msg_u2", [], "quiet");
    expect(quiet.keyboard).toEqual([[expect.objectContaining({ text: "⑂ Fork" })]]);
    await say("/undo", quiet.messageId);
    await find("Nothing to undo");
    expect(telegram.messages.filter((m) => m.text.includes("Undo this run?"))).toHaveLength(1);
  });

  it("a stranger's taps are refused and reach no OpenCode route", async () => {
    const { telegram, opencode, run, find, tap } = rig({ allowedUsers: [OWNER] });
    const notice = await run("msg_u1");
    opencode.answers.set("/session/{sessionID}/revert", REVERTED);
    await tap(notice, "⏪ Undo", 4242);
    expect(telegram.callbackAnswers.at(-1)).toMatchObject({ text: expect.stringContaining("Not authorized") });
    await tap(notice, "⏪ Undo");
    const confirm = await find("Undo this run?");
    await tap(confirm, "⏪ Confirm undo", 4242);
    expect(telegram.callbackAnswers.at(-1)).toMatchObject({ text: expect.stringContaining("Not authorized") });
    expect(reverts(opencode.posts)).toEqual([]);
  });
});
